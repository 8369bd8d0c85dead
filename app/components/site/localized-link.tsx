import { Link, type LinkComponent, type LinkComponentProps } from '@tanstack/react-router'
import { localeParam } from '~/lib/locale'
import { useLocale } from '~/lib/use-locale'
import { localizedParams } from './localized-params'

/**
 * A `Link` in the visitor's locale, typed against the route tree: callers name the route as its file
 * does, `<LocalizedLink to="/{-$locale}/models/$slug" params={{ slug }}>`, and this fills in `locale`
 * (none for the default locale, so no prefix). A wrong path or a missing param is a compile error.
 */
export const LocalizedLink: LinkComponent<'a'> = (props) => {
  // Checked against the route tree at the call site; passed on here as plain link props.
  const link = props as LinkComponentProps
  return <Link {...link} params={localizedParams(link.to, link.params, localeParam(useLocale()))} />
}
