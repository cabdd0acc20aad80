import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useScreenSearchParams } from './use-screen-search-params.ts';

const wrapper = ({ children }: { children: ReactNode }) => <BrowserRouter>{children}</BrowserRouter>;

describe('useScreenSearchParams', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it("writes the screen's state into its address", () => {
    window.history.replaceState(null, '', '/tickets');
    const { result } = renderHook(() => useScreenSearchParams(), { wrapper });
    act(() => result.current[1]({ q: 'rampa' }, { replace: true }));
    expect(window.location.pathname + window.location.search).toBe('/tickets?q=rampa');
    expect(result.current[0].get('q')).toBe('rampa');
  });

  it('starts a functional update from the address as it is now, not from what was rendered', () => {
    window.history.replaceState(null, '', '/tickets');
    const { result } = renderHook(() => useScreenSearchParams(), { wrapper });
    const set = result.current[1];
    // A write the router has not rendered yet (its transition is still pending).
    window.history.replaceState(null, '', '/tickets?q=rampa');
    act(() =>
      set(
        (current) => {
          const next = new URLSearchParams(current);
          next.set('sort', 'name:asc');
          return next;
        },
        { replace: true },
      ),
    );
    expect(new URLSearchParams(window.location.search).get('q')).toBe('rampa');
    expect(new URLSearchParams(window.location.search).get('sort')).toBe('name:asc');
  });

  it('leaves alone the address of a link followed while the screen is still on display', () => {
    window.history.replaceState(null, '', '/tickets');
    const { result } = renderHook(() => useScreenSearchParams(), { wrapper });
    // The browser is already at the ticket; the router has not rendered it yet.
    window.history.pushState(null, '', '/tickets/12');
    act(() => result.current[1]({ q: 'rampa' }, { replace: true }));
    expect(window.location.pathname + window.location.search).toBe('/tickets/12');
  });
});
