import { Link } from '@tanstack/react-router'
import type * as React from 'react'
import { localizePath } from '~/lib/locale'
import { useLocale } from '~/lib/use-locale'

type Props = Omit<React.ComponentProps<'a'>, 'href'> & {
  /** A path without locale prefix, e.g. "/models" or "/news/some-post". */
  to: string
  search?: Record<string, unknown>
  hash?: string
}

/** A link that keeps the visitor's locale prefix. */
export function LocalizedLink({ to, search, hash, ...props }: Props) {
  const locale = useLocale()
  return <Link to={localizePath(to, locale) as never} search={search as never} hash={hash} {...props} />
}
