import { isoDate, useFormatContentDate, type DateStyle } from './format'

export function ContentDate({
  date,
  style = 'numeric',
  className,
}: {
  date: string
  style?: DateStyle
  className?: string
}) {
  const format = useFormatContentDate()
  return (
    <time dateTime={isoDate(date)} className={className}>
      {format(date, style)}
    </time>
  )
}
