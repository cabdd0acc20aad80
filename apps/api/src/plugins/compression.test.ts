import { describe, expect, it } from 'vitest';
import { preferredEncoding } from './compression.ts';

describe('the encoding an answer is compressed with', () => {
  it('prefers brotli, as browsers and fetch accept it', () => {
    expect(preferredEncoding('gzip, deflate, br')).toBe('br');
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('*')).toBe('br');
  });

  it('follows the weights the client gives', () => {
    expect(preferredEncoding('br;q=0.5, gzip')).toBe('gzip');
    expect(preferredEncoding('br;q=0, gzip;q=0.8')).toBe('gzip');
    expect(preferredEncoding('gzip;q=0, br;q=0')).toBeNull();
    expect(preferredEncoding('*, br;q=0')).toBe('gzip');
  });

  it('sends the answer as it is when no encoding we write is accepted', () => {
    expect(preferredEncoding(undefined)).toBeNull();
    expect(preferredEncoding('')).toBeNull();
    expect(preferredEncoding('identity')).toBeNull();
    expect(preferredEncoding('deflate')).toBeNull();
  });
});
