import { ActionIcon, Alert, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { ATTACHMENT_MSG, MAX_FILES_PER_UPLOAD, formatBytes, tooManyFilesMessage } from '@portal/contract';
import { IconAlertTriangle, IconCloudUpload, IconFileTypePdf, IconPhoto, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { FileDrop, type FileDropRejection } from './file-drop.tsx';

/** pdf, jpg/jpeg and png: checked by type or by extension, as the browser reports either. */
export const DOCUMENT_ACCEPT: Record<string, string[]> = {
  'application/pdf': ['.pdf'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
};

export interface FileDropzoneProps {
  /** The files chosen so far (controlled). */
  value: File[];
  onChange: (files: File[]) => void;
  /** Most files at once (3 by default). */
  maxFiles?: number;
  /** Largest file in bytes; no limit by default. */
  maxSize?: number;
  accept?: Record<string, string[]>;
  disabled?: boolean;
  loading?: boolean;
  /** What the zone says; the accepted types and limits are added below it. */
  label?: string;
}

const iconOf = (type: string) =>
  type === 'application/pdf' ? (
    <IconFileTypePdf size={18} color="var(--mantine-color-red-7)" aria-hidden />
  ) : (
    <IconPhoto size={18} color="var(--mantine-color-blue-7)" aria-hidden />
  );

/**
 * The file drop zone: drag or pick files of the accepted
 * types, at most `maxFiles`; refusals say 'Formato inválido' or 'Solo se pueden
 * subir N como máximo'; the chosen files are listed with name, size and type.
 */
export function FileDropzone({
  value,
  onChange,
  maxFiles = MAX_FILES_PER_UPLOAD,
  maxSize,
  accept = DOCUMENT_ACCEPT,
  disabled = false,
  loading = false,
  label = 'Arrastra los archivos aquí o haz clic para elegirlos',
}: FileDropzoneProps) {
  const [problems, setProblems] = useState<string[]>([]);
  const extensions = [...new Set(Object.values(accept).flat())].map((e) => e.slice(1)).join(', ');

  const drop = (files: File[]) => {
    if (value.length + files.length > maxFiles) {
      setProblems([tooManyFilesMessage(maxFiles)]);
      return;
    }
    setProblems([]);
    onChange([...value, ...files]);
  };

  const reject = (reason: FileDropRejection, files: File[]) => {
    if (reason === 'too-many-files') setProblems([tooManyFilesMessage(maxFiles)]);
    else if (reason === 'file-invalid-type') setProblems([ATTACHMENT_MSG.invalidFormat]);
    else
      setProblems(
        files.filter((f) => maxSize && f.size > maxSize).map((f) => ATTACHMENT_MSG.tooLarge(f.name, maxSize!)),
      );
  };

  const remove = (index: number) => {
    setProblems([]);
    onChange(value.filter((_, i) => i !== index));
  };

  const isFull = value.length >= maxFiles;

  return (
    <Stack gap="xs">
      <FileDrop
        onDrop={drop}
        onReject={reject}
        accept={Object.keys(accept)}
        maxSize={maxSize ?? Number.MAX_SAFE_INTEGER}
        maxFiles={maxFiles}
        loading={loading || disabled}
        p="md"
        aria-label={label}
        data-testid="file-dropzone"
        data-full={isFull || undefined}
      >
        <Group justify="center" gap="sm" wrap="nowrap" style={{ pointerEvents: 'none' }}>
          <IconCloudUpload size={34} stroke={1.5} color="var(--mantine-color-gray-6)" aria-hidden />
          <div>
            <Text size="sm" fw={500}>
              {label}
            </Text>
            <Text size="xs" c="dimmed">
              {extensions.toUpperCase()}; hasta {maxFiles} {maxFiles === 1 ? 'archivo' : 'archivos'}
              {maxSize ? ` de ${formatBytes(maxSize)} cada uno` : ''}.
            </Text>
          </div>
        </Group>
      </FileDrop>

      {problems.length > 0 && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle />} role="alert" py="xs">
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            {problems.join('\n')}
          </Text>
        </Alert>
      )}

      {value.length > 0 && (
        <Table verticalSpacing={4} fz="sm" aria-label="Archivos seleccionados" data-testid="dropped-files">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Nombre</Table.Th>
              <Table.Th w={90}>Tamaño</Table.Th>
              <Table.Th w={130}>Tipo</Table.Th>
              <Table.Th w={40} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {value.map((file, index) => (
              <Table.Tr key={`${file.name}-${file.size}-${index}`}>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    {iconOf(file.type)}
                    <Text size="sm" truncate="end" maw={260} title={file.name}>
                      {file.name}
                    </Text>
                  </Group>
                </Table.Td>
                <Table.Td>{formatBytes(file.size)}</Table.Td>
                <Table.Td>
                  <Text size="xs" c="dimmed">
                    {file.type || 'desconocido'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Tooltip label="Quitar">
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      size="sm"
                      aria-label={`Quitar ${file.name}`}
                      onClick={() => remove(index)}
                      disabled={loading}
                    >
                      <IconX size={14} />
                    </ActionIcon>
                  </Tooltip>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
