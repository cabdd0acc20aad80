/** In-house illustrations (no image downloads); decorative, hidden from screen readers. */

export function EmptyIllustration({ size = 120 }: { size?: number }) {
  return (
    <svg width={size} height={(size * 96) / 120} viewBox="0 0 120 96" aria-hidden="true" focusable="false">
      <ellipse cx="60" cy="86" rx="44" ry="6" fill="var(--mantine-color-gray-2)" />
      <path d="M22 40 60 24l38 16v34L60 90 22 74z" fill="var(--mantine-color-brand-0)" />
      <path d="M22 40 60 56v34L22 74z" fill="var(--mantine-color-brand-1)" />
      <path d="M98 40 60 56v34l38-16z" fill="var(--mantine-color-brand-2)" />
      <path d="M22 40 60 24l38 16-38 16z" fill="var(--mantine-color-brand-0)" stroke="var(--mantine-color-brand-3)" />
      <path d="m22 40-10 12 38 16 10-12z" fill="var(--mantine-color-brand-1)" stroke="var(--mantine-color-brand-3)" />
      <path d="m98 40 10 12-38 16-10-12z" fill="var(--mantine-color-brand-2)" stroke="var(--mantine-color-brand-3)" />
      <circle cx="86" cy="16" r="3" fill="var(--mantine-color-brand-3)" />
      <circle cx="30" cy="12" r="2" fill="var(--mantine-color-brand-2)" />
      <path d="M48 10h8M52 6v8" stroke="var(--mantine-color-brand-3)" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export function LostIllustration({ size = 140 }: { size?: number }) {
  return (
    <svg width={size} height={(size * 100) / 140} viewBox="0 0 140 100" aria-hidden="true" focusable="false">
      <ellipse cx="70" cy="90" rx="54" ry="7" fill="var(--mantine-color-gray-2)" />
      <path d="M20 30 50 20l40 12 30-10v56l-30 10-40-12-30 10z" fill="var(--mantine-color-brand-0)" />
      <path d="M50 20v56M90 32v56" stroke="var(--mantine-color-brand-2)" strokeWidth="2" />
      <path
        d="M30 66c10-6 16 6 28-2s14-14 26-10 16 4 24-6"
        fill="none"
        stroke="var(--mantine-color-brand-4)"
        strokeWidth="2.5"
        strokeDasharray="5 5"
        strokeLinecap="round"
      />
      <path
        d="M108 16a12 12 0 0 0-12 12c0 9 12 20 12 20s12-11 12-20a12 12 0 0 0-12-12z"
        fill="var(--mantine-color-brand-8)"
      />
      <circle cx="108" cy="28" r="4.5" fill="#fff" />
    </svg>
  );
}
