import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render.tsx';
import { ListPagination } from './list-pagination.tsx';

describe('ListPagination', () => {
  it('shows the exact total of a counted list', () => {
    renderWithProviders(
      <ListPagination page={2} lastPage={5} onChange={() => {}} count={{ total: 42, perPage: 10, noun: 'tickets' }} />,
    );
    expect(screen.getByText('Mostrando 11–20 de 42 tickets')).toBeInTheDocument();
  });

  it('says "más de" when the count stopped at a cap', () => {
    renderWithProviders(
      <ListPagination
        page={1}
        lastPage={1000}
        onChange={() => {}}
        count={{ total: 10_000, perPage: 10, noun: 'tickets', isLowerBound: true }}
      />,
    );
    expect(screen.getByText('Mostrando 1–10 de más de 10.000 tickets')).toBeInTheDocument();
  });
});
