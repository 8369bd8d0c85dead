"""Hand-drawn 24x24 line glyphs for products and socials, and small marketplace badges.

The marketplace badges only hint at each cloud's colours; they are not the vendors' logos.
"""

PRODUCT_GLYPHS = {
    # A page with text lines and a folded corner.
    'reader': '<path d="M6 3h8l4 4v14H6z"/><path d="M14 3v4h4"/><path d="M9 11h6M9 14h6M9 17h4"/>',
    # Points in a vector space, linked to a centre.
    'embeddings': '<circle cx="12" cy="12" r="2"/><circle cx="5" cy="6" r="1.6"/><circle cx="19" cy="5" r="1.6"/>'
                  '<circle cx="18" cy="18" r="1.6"/><circle cx="5" cy="18" r="1.6"/>'
                  '<path d="M6.3 7.1 10.5 10.7M17.7 6.1 13.4 10.6M16.8 16.8l-3.4-3.4M6.3 16.9l4.2-3.6"/>',
    # Bars of falling length with an upward arrow: the best result moves up.
    'reranker': '<path d="M4 6h9M4 12h7M4 18h5"/><path d="M18 20V5M14.5 8.5 18 5l3.5 3.5"/>',
    # A magnifier with a plus: search that goes further.
    'deepsearch': '<circle cx="10" cy="10" r="6"/><path d="m14.5 14.5 5.5 5.5"/><path d="M10 7v6M7 10h6"/>',
    # A price-tag shape: a label assigned to an input.
    'classifier': '<path d="M3 12V4h8l10 10-7 7z"/><circle cx="7.5" cy="8" r="1.3"/>',
    # Text cut into segments.
    'segmenter': '<path d="M3 7h7M14 7h7M3 12h4M11 12h10M3 17h10M17 17h4"/><path d="M12 4v16" stroke-dasharray="2 2"/>',
    # Three sliders.
    'fine-tuning': '<path d="M5 4v16M12 4v16M19 4v16"/><circle cx="5" cy="9" r="2"/><circle cx="12" cy="15" r="2"/><circle cx="19" cy="7" r="2"/>',
    # A browser window listing results.
    'llm-serp-demo': '<rect x="3" y="4" width="18" height="16" rx="2"/><path d="M3 8h18M7 12h10M7 15h8M7 18h6"/>',
}

_SOCIAL = ('<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" '
           'stroke="STROKE" stroke-width="1.75" stroke-linecap="round" stroke-linejoin="round">{}</svg>\n')

SOCIAL_GLYPHS = {name: _SOCIAL.format(body) for name, body in {
    'x': '<path d="M5 4l14 16M19 4 5 20"/>',
    'linkedin': '<rect x="3" y="3" width="18" height="18" rx="3"/><path d="M8 10.5V17M8 7.2v.1M12 17v-6.5M12 13.5c0-2 1.2-3 2.6-3s2.4.9 2.4 3V17"/>',
    # A git branch rather than the vendor's mark.
    'github': '<circle cx="7" cy="5.5" r="2"/><circle cx="7" cy="18.5" r="2"/><circle cx="17" cy="8" r="2"/>'
              '<path d="M7 7.5v9M17 10c0 4-10 2-10 6.5"/>',
    'huggingface': '<circle cx="12" cy="12" r="9"/><path d="M8.5 14.5c1.8 2.2 5.2 2.2 7 0"/><path d="M9 9.5v.5M15 9.5v.5"/>',
    'discord': '<path d="M7 6c3-1.2 7-1.2 10 0 1.8 3 2.8 6.3 2.6 10-1.6 1.4-3.3 2.1-5 2.4l-1-2h-3.2l-1 2c-1.7-.3-3.4-1-5-2.4C4.2 12.3 5.2 9 7 6z"/>'
               '<circle cx="9.5" cy="12.5" r="1.1"/><circle cx="14.5" cy="12.5" r="1.1"/>',
    'wechat': '<path d="M9.5 4C5.9 4 3 6.4 3 9.4c0 1.7.9 3.2 2.4 4.2L5 16l2.6-1.3c.6.1 1.2.2 1.9.2"/>'
              '<path d="M15 9c3.3 0 6 2.1 6 4.8 0 1.5-.8 2.8-2.1 3.7l.4 2-2.3-1.1c-.6.1-1.3.2-2 .2-3.3 0-6-2.1-6-4.8S11.7 9 15 9z"/>',
    'mail': '<rect x="3" y="5" width="18" height="14" rx="2"/><path d="m3.5 6 8.5 7 8.5-7"/>',
}.items()}


def _badge(body, label):
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48" '
            f'role="img" aria-label="{label}"><rect width="48" height="48" rx="10" fill="#f3f4f6"/>{body}</svg>\n')


MARKETPLACE = {
    'aws': _badge('<path d="M12 30c7 5 17 5 24 0" fill="none" stroke="#f59e0b" stroke-width="3" stroke-linecap="round"/>'
                  '<path d="M31 27.5l5 2.5-2.5 4.5" fill="none" stroke="#f59e0b" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>'
                  '<rect x="13" y="14" width="22" height="10" rx="3" fill="#374151"/>', 'AWS Marketplace'),
    'azure': _badge('<path d="M21 11h8l-10 26h-8z" fill="#2563eb"/><path d="M27 20l10 17H23z" fill="#60a5fa"/>',
                    'Microsoft Azure Marketplace'),
    'google-cloud': _badge('<path d="M15 33a7 7 0 0 1 0-14 9.5 9.5 0 0 1 18 1.5A6.3 6.3 0 0 1 33 33z" fill="none" '
                           'stroke="#9ca3af" stroke-width="3.5" stroke-linejoin="round"/>'
                           '<path d="M15 33a7 7 0 0 1 0-14" fill="none" stroke="#ef4444" stroke-width="3.5"/>'
                           '<path d="M33 20.5A6.3 6.3 0 0 1 33 33" fill="none" stroke="#22c55e" stroke-width="3.5"/>',
                           'Google Cloud Marketplace'),
}
