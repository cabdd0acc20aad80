import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AVATAR_URL_PREFIX, DEFAULT_AVATAR_FILE } from '@portal/contract';

export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;
/** Stored avatars fit in this square (pixels); the top bar shows 36 px, the profile 96 px. */
export const AVATAR_MAX_SIDE = 512;
/** Refuses decompression bombs: a 2 MB file may not claim more pixels than this. */
const MAX_INPUT_PIXELS = 40_000_000;
/** Stored names are random, so a URL reveals nothing and cannot be guessed. */
export const AVATAR_FILE_PATTERN = /^[0-9a-f-]{36}\.(png|jpg|webp)$/;

const types = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' } as const;
type Extension = keyof typeof types;

/** The in-house default: a neutral silhouette in the brand blue. */
export const DEFAULT_AVATAR_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img" aria-label="Avatar">
<rect width="64" height="64" rx="32" fill="#dbe4f0"/>
<circle cx="32" cy="25" r="11" fill="#1c4e80"/>
<path d="M12 54c2.5-10.5 10.5-16 20-16s17.5 5.5 20 16a30 30 0 0 1-40 0z" fill="#1c4e80"/>
</svg>
`;

/** Recognises PNG, JPEG and WebP by their first bytes, whatever the client called them. */
export function imageExtension(bytes: Buffer): Extension | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  return null;
}

/**
 * Decodes the whole image and re-encodes it as WebP: oriented by its EXIF tag,
 * at most AVATAR_MAX_SIDE on each side, with no metadata (location, camera) kept.
 * Null when the bytes do not decode (corrupt, truncated, not really an image).
 */
export async function reencodeAvatar(bytes: Buffer): Promise<Buffer | null> {
  const { default: sharp } = await import('sharp'); // loaded on first use, not at start
  try {
    return await sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(AVATAR_MAX_SIDE, AVATAR_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    return null;
  }
}

export const contentTypeOf = (file: string) => types[path.extname(file).slice(1) as Extension];

export const avatarUrl = (avatarPath: string | null) => `${AVATAR_URL_PREFIX}${avatarPath ?? DEFAULT_AVATAR_FILE}`;

/** Avatar files in DATA_DIR/uploads/avatars. */
export function createAvatarStore(dataDir: string) {
  const dir = path.join(dataDir, 'uploads', 'avatars');
  return {
    async save(bytes: Buffer, extension: Extension): Promise<string> {
      mkdirSync(dir, { recursive: true });
      const name = `${randomUUID()}.${extension}`;
      await writeFile(path.join(dir, name), bytes, { flag: 'wx', mode: 0o640 });
      return name;
    },
    async read(name: string): Promise<Buffer | null> {
      if (!AVATAR_FILE_PATTERN.test(name)) return null;
      return readFile(path.join(dir, name)).catch(() => null);
    },
    async remove(name: string | null): Promise<void> {
      if (name && AVATAR_FILE_PATTERN.test(name)) await unlink(path.join(dir, name)).catch(() => undefined);
    },
  };
}
export type AvatarStore = ReturnType<typeof createAvatarStore>;
