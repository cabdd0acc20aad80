import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render.tsx';
import { IconAction } from './icon-action.tsx';

describe('IconAction', () => {
  it('is a button named for its row that shows its tooltip while the mouse is over it', async () => {
    const onClick = vi.fn();
    renderWithProviders(<IconAction label="Editar" ariaLabel="Editar ticket 7" icon="✎" onClick={onClick} />);
    const button = screen.getByRole('button', { name: 'Editar ticket 7' });
    expect(screen.queryByRole('tooltip')).toBeNull();

    fireEvent.pointerEnter(button, { pointerType: 'mouse' });
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Editar');
    fireEvent.pointerLeave(button, { pointerType: 'mouse' });
    await vi.waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());

    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledOnce();
  });

  it('shows no tooltip for a touch', () => {
    renderWithProviders(<IconAction label="Editar" ariaLabel="Editar ticket 7" icon="✎" onClick={() => {}} />);
    fireEvent.pointerEnter(screen.getByRole('button'), { pointerType: 'touch' });
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
