export function FormError({ message }: { message: string | undefined }) {
  if (!message) return null
  return (
    <p role="alert" className="text-sm text-destructive" data-testid="auth-error">
      {message}
    </p>
  )
}
