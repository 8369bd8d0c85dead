import type { CoverImage } from '#content/schemas'
import { cn } from '~/lib/utils'

/** A cover as AVIF, then WebP, then the SVG original; width and height reserve its box before it loads. */
export function CoverPicture({
  image,
  alt,
  eager = false,
  className,
}: {
  image: CoverImage
  alt: string
  /** Above the fold (the page's largest image): load at once with high priority. */
  eager?: boolean
  className?: string
}) {
  return (
    <picture>
      <source type="image/avif" srcSet={image.avif} />
      <source type="image/webp" srcSet={image.webp} />
      <img
        src={image.src}
        alt={alt}
        width={image.width}
        height={image.height}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
        fetchPriority={eager ? 'high' : undefined}
        className={cn('h-auto w-full object-cover', className)}
      />
    </picture>
  )
}
