/** The brand mark: a four-point star inside a ring. Inline so it follows the text colour in both themes. */
export function Logo({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden focusable="false">
      <circle cx="16" cy="16" r="14" fill="none" stroke="currentColor" strokeWidth="2.5" opacity="0.35" />
      <path d="M16 4l3 9 9 3-9 3-3 9-3-9-9-3 9-3z" fill="var(--primary)" />
    </svg>
  )
}
