/**
 * A score in [0, 1] as a bar (role="meter") named `label`, which a screen reader announces as `valueText`. Kept here rather
 * than reusing `~/components/ui/meter`, for the same reason as ./demo-textarea.tsx.
 */
export function ScoreBar({ value, label, valueText }: { value: number; label: string; valueText: string }) {
  const clamped = Math.min(1, Math.max(0, value))
  return (
    <div
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={1}
      aria-valuenow={clamped}
      aria-valuetext={valueText}
      className="h-2 w-full overflow-hidden rounded-full bg-muted"
    >
      <div className="h-full rounded-full bg-primary" style={{ width: `${clamped * 100}%` }} />
    </div>
  )
}
