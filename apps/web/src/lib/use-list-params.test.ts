import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useSearchPage } from './use-list-params.ts';

describe('useSearchPage', () => {
  it('keeps the page while the search stays and starts again at 1 when it changes', () => {
    const { result, rerender } = renderHook(({ search }) => useSearchPage(search), { initialProps: { search: '' } });
    act(() => result.current[1](3));
    expect(result.current[0]).toBe(3);
    rerender({ search: '' });
    expect(result.current[0]).toBe(3);
    rerender({ search: 'rampa' });
    expect(result.current[0]).toBe(1);
    act(() => result.current[1](2));
    expect(result.current[0]).toBe(2);
  });
});
