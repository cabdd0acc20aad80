import { Box, LoadingOverlay, type BoxProps } from '@mantine/core';
import { useRef, useState, type DragEvent, type KeyboardEvent, type ReactNode } from 'react';
import classes from './file-drop.module.css';

/** Why a chosen or dropped set of files was refused. */
export type FileDropRejection = 'too-many-files' | 'file-too-large' | 'file-invalid-type';

export type FileDropProps = BoxProps & {
  /** MIME types accepted, e.g. `['image/png', 'image/jpeg']`. */
  accept: string[];
  /** Largest file accepted, in bytes. */
  maxSize: number;
  /** How many files one drop may carry (default 1). */
  maxFiles?: number;
  loading?: boolean;
  /** Corner radius of the area, e.g. `'50%'` for a round photo. */
  radius?: string;
  onDrop: (files: File[]) => void;
  onReject: (reason: FileDropRejection, files: File[]) => void;
  'aria-label': string;
  title?: string;
  children: ReactNode;
};

/** The first reason `files` cannot be taken, or null when every one may be. */
export function checkFiles(
  files: File[],
  { accept, maxSize, maxFiles = 1 }: Pick<FileDropProps, 'accept' | 'maxSize' | 'maxFiles'>,
): FileDropRejection | null {
  if (files.length > maxFiles) return 'too-many-files';
  if (files.some((file) => !accept.includes(file.type))) return 'file-invalid-type';
  if (files.some((file) => file.size > maxSize)) return 'file-too-large';
  return null;
}

/**
 * A drop area that is also a button: click, Enter or Space opens the file
 * chooser, a dragged file highlights it, and what is chosen or dropped is
 * checked (type, size, count) before `onDrop`. Replaces `@mantine/dropzone`,
 * whose dependencies require Node 22.
 */
export function FileDrop({
  accept,
  maxSize,
  maxFiles = 1,
  loading = false,
  radius,
  onDrop,
  onReject,
  children,
  title,
  'aria-label': ariaLabel,
  ...box
}: FileDropProps) {
  const input = useRef<HTMLInputElement>(null);
  const [isDragging, setDragging] = useState(false);

  const take = (list: FileList | null) => {
    const files = Array.from(list ?? []);
    if (files.length === 0) return;
    const reason = checkFiles(files, { accept, maxSize, maxFiles });
    if (reason) onReject(reason, files);
    else onDrop(files);
  };

  const open = () => {
    if (!loading) input.current?.click();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      open();
    }
  };

  const onDragOver = (event: DragEvent) => {
    event.preventDefault();
    if (!loading) setDragging(true);
  };

  const onDropEvent = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!loading) take(event.dataTransfer.files);
  };

  return (
    <Box
      {...box}
      role="button"
      tabIndex={loading ? -1 : 0}
      aria-label={ariaLabel}
      aria-busy={loading || undefined}
      title={title}
      className={classes.root}
      style={radius ? { '--file-drop-radius': radius } : undefined}
      data-dragging={isDragging || undefined}
      data-loading={loading || undefined}
      onClick={open}
      onKeyDown={onKeyDown}
      onDragOver={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDropEvent}
    >
      <LoadingOverlay visible={loading} style={{ borderRadius: 'inherit' }} loaderProps={{ size: 'sm' }} />
      <input
        ref={input}
        type="file"
        hidden
        tabIndex={-1}
        accept={accept.join(',')}
        multiple={maxFiles > 1}
        data-testid="file-drop-input"
        onChange={(event) => {
          take(event.currentTarget.files);
          event.currentTarget.value = '';
        }}
      />
      {children}
    </Box>
  );
}
