import { msg } from '@lingui/core/macro'
import { brand } from '#config'
import type { SocialLink } from './schemas'

const iconSrc = (icon: string) => `/images/socials/${icon}.svg`

export const socialLinks: SocialLink[] = [
  {
    id: 'x',
    icon: 'x',
    iconSrc: iconSrc('x'),
    label: msg`Follow us on X`,
    kind: 'link',
    link: 'https://x.com/lodestar_ai',
  },
  {
    id: 'linkedin',
    icon: 'linkedin',
    iconSrc: iconSrc('linkedin'),
    label: msg`Follow us on LinkedIn`,
    kind: 'link',
    link: 'https://www.linkedin.com/company/lodestar-ai',
  },
  {
    id: 'github',
    icon: 'github',
    iconSrc: iconSrc('github'),
    label: msg`Our code on GitHub`,
    kind: 'link',
    link: 'https://github.com/lodestar-ai',
  },
  {
    id: 'huggingface',
    icon: 'huggingface',
    iconSrc: iconSrc('huggingface'),
    label: msg`Our models on Hugging Face`,
    kind: 'link',
    link: 'https://huggingface.co/lodestar-ai',
  },
  {
    id: 'discord',
    icon: 'discord',
    iconSrc: iconSrc('discord'),
    label: msg`Join our Discord`,
    kind: 'link',
    link: 'https://discord.gg/lodestar-ai',
  },
  {
    id: 'wechat',
    icon: 'wechat',
    iconSrc: iconSrc('wechat'),
    label: msg`Scan to follow us on WeChat`,
    kind: 'qrcode',
    qrcode: '/images/socials/wechat-qr.svg',
  },
  {
    id: 'email',
    icon: 'mail',
    iconSrc: iconSrc('mail'),
    label: msg`E-mail support`,
    kind: 'link',
    link: `mailto:${brand.supportEmail}`,
  },
]
