import { Avatar, type AvatarProps } from '@mantine/core';

/** Up to two initials of a full name ('Diego Hernández' → 'DH'). */
export const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');

/**
 * A person's photo, or their initials when there is none or it cannot be shown
 * (a broken or unreachable image: Mantine's Avatar swaps to its children on the
 * image's error event).
 */
export function UserAvatar({ name, src, ...props }: { name: string; src?: string | null | undefined } & AvatarProps) {
  return (
    <Avatar color="brand" radius="xl" alt={name || 'Usuario'} src={src ?? null} {...props}>
      {initialsOf(name) || 'U'}
    </Avatar>
  );
}
