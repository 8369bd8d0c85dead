import { useHydrated } from '~/lib/use-api-key'

/**
 * A form whose controls stay disabled until the page has hydrated. Live pages start their runtime at idle,
 * after the first paint: a form rendered on the server would otherwise take typing that React does not know
 * of, and a submit before its handler exists is the browser's own, a reload that loses what was typed.
 */
export function HydratedForm({ children, ...props }: React.ComponentProps<'form'>) {
  const hydrated = useHydrated()
  return (
    <form {...props}>
      <fieldset disabled={!hydrated} className="contents">
        {children}
      </fieldset>
    </form>
  )
}
