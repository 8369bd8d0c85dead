import { useLingui as useLinguiRuntime } from '@lingui/react'
import { socialLinks } from '#content/socials'
import { DisclosureMenu } from './disclosure-menu'

const iconClass = 'size-5 opacity-70 transition-opacity hover:opacity-100 dark:invert'

/** Spec §1: X, LinkedIn, GitHub, the model hub, Discord, WeChat as a QR code, and the support e-mail. */
export function SocialLinks() {
  const { i18n } = useLinguiRuntime()
  return (
    <ul className="flex items-center gap-1">
      {socialLinks.map((social) => {
        const label = i18n._(social.label)
        return (
          <li key={social.id}>
            {social.kind === 'link' ? (
              <a
                href={social.link}
                rel="noopener"
                target={social.link.startsWith('mailto:') ? undefined : '_blank'}
                aria-label={label}
                title={label}
                className="inline-flex size-9 items-center justify-center rounded-md hover:bg-accent"
              >
                <img src={social.iconSrc} alt="" width={20} height={20} loading="lazy" className={iconClass} />
              </a>
            ) : (
              <DisclosureMenu
                label={<span className="sr-only">{label}</span>}
                icon={<img src={social.iconSrc} alt="" width={20} height={20} loading="lazy" className={iconClass} />}
                align="end"
                buttonClassName="px-2 [&>svg:last-child]:hidden"
                className="[&>div]:bottom-full [&>div]:top-auto [&>div]:mb-1"
              >
                <figure className="w-44 text-center">
                  <img
                    src={social.qrcode}
                    alt={label}
                    width={160}
                    height={160}
                    loading="lazy"
                    className="mx-auto rounded bg-white p-2"
                  />
                  <figcaption className="mt-2 text-xs text-muted-foreground">{label}</figcaption>
                </figure>
              </DisclosureMenu>
            )}
          </li>
        )
      })}
    </ul>
  )
}
