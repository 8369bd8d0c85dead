import type { Model } from '#content/schemas'
import { cn } from '~/lib/utils'

/**
 * A model's banner: its artwork with its name set over it as text. The name used to be drawn into the image,
 * where a long one ran past the picture's edge and a cropped picture cut it ("Embeddin", "Reranker v2 Base
 * Multilingua"); as text it wraps, and hyphenates a word too long for its line. Decorative: the heading beside
 * it names the model to assistive technology.
 */
export function ModelBanner({
  model,
  className,
  titleClassName,
  eager = false,
  priority = false,
}: {
  model: Model
  /** The banner's box: its size or aspect ratio. */
  className?: string
  titleClassName?: string
  eager?: boolean
  /** The page's largest image: fetched first. */
  priority?: boolean
}) {
  return (
    <div data-testid="model-banner" className={cn('relative overflow-hidden bg-primary', className)}>
      <img
        src={model.image}
        alt=""
        width={640}
        height={360}
        loading={eager || priority ? 'eager' : 'lazy'}
        decoding="async"
        fetchPriority={priority ? 'high' : undefined}
        className="absolute inset-0 size-full object-cover object-left-bottom"
      />
      {/* The names are English, so English rules hyphenate them whatever the page's language. */}
      <p
        aria-hidden
        lang="en"
        data-testid="model-banner-title"
        className={cn(
          'absolute inset-x-0 bottom-0 px-5 pb-4 font-semibold text-balance break-words hyphens-auto text-white',
          titleClassName,
        )}
      >
        {model.name}
      </p>
    </div>
  )
}
