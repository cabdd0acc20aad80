import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render.tsx';
import { checkFiles, FileDrop } from './file-drop.tsx';

const rules = { accept: ['image/png', 'image/jpeg'], maxSize: 1000, maxFiles: 1 };
const file = (name: string, type: string, size = 10) => new File([new Uint8Array(size)], name, { type });

describe('checkFiles', () => {
  it('accepts one image within the size, and names the first reason otherwise', () => {
    expect(checkFiles([file('a.png', 'image/png')], rules)).toBeNull();
    expect(checkFiles([file('a.png', 'image/png'), file('b.png', 'image/png')], rules)).toBe('too-many-files');
    expect(checkFiles([file('a.gif', 'image/gif')], rules)).toBe('file-invalid-type');
    expect(checkFiles([file('a.png', 'image/png', 2000)], rules)).toBe('file-too-large');
  });
});

describe('FileDrop', () => {
  function setup(loading = false) {
    const onDrop = vi.fn();
    const onReject = vi.fn();
    renderWithProviders(
      <FileDrop {...rules} loading={loading} onDrop={onDrop} onReject={onReject} aria-label="Cambiar foto de perfil">
        <span>Cambiar foto</span>
      </FileDrop>,
    );
    return { onDrop, onReject, area: screen.getByRole('button', { name: 'Cambiar foto de perfil' }) };
  }

  it('opens the file chooser with Enter, and hands over a chosen image', async () => {
    const { onDrop, area } = setup();
    const input = screen.getByTestId<HTMLInputElement>('file-drop-input');
    const click = vi.spyOn(input, 'click');
    area.focus();
    await userEvent.keyboard('{Enter}');
    expect(click).toHaveBeenCalled();
    await userEvent.upload(input, file('yo.png', 'image/png'));
    expect(onDrop).toHaveBeenCalledWith([expect.objectContaining({ name: 'yo.png' })]);
  });

  it('refuses a dropped file of another type', () => {
    const { onDrop, onReject, area } = setup();
    fireEvent.drop(area, { dataTransfer: { files: [file('doc.pdf', 'application/pdf')] } });
    expect(onReject).toHaveBeenCalledWith('file-invalid-type', expect.any(Array));
    expect(onDrop).not.toHaveBeenCalled();
  });

  it('takes nothing while it is uploading', () => {
    const { onDrop, onReject, area } = setup(true);
    fireEvent.drop(area, { dataTransfer: { files: [file('yo.png', 'image/png')] } });
    expect(onDrop).not.toHaveBeenCalled();
    expect(onReject).not.toHaveBeenCalled();
    expect(area).toHaveAttribute('aria-busy', 'true');
  });
});
