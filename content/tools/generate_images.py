#!/usr/bin/env python3
"""Writes the site's content images under public/images/ as small deterministic SVGs, plus WebP and
AVIF copies of the 1200x630 covers. Re-run after adding a model, paper, post, customer or product.

Needs: python3-qrcode (Debian) for the WeChat code; rsvg-convert, cwebp and avifenc (Debian packages
librsvg2-bin, webp, libavif-bin) for the raster covers. Run from the repository root:
    /usr/bin/python3 content/tools/generate_images.py
"""
import colorsys
import os
import random
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep content/tools free of __pycache__
sys.path.insert(0, os.path.dirname(__file__))
from glyphs import MARKETPLACE, PRODUCT_GLYPHS, SOCIAL_GLYPHS  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')
OUT = os.path.join(ROOT, 'public', 'images')
CONTENT = os.path.join(ROOT, 'content')
GRAY = '#6b7280'
MAX_BYTES = 40 * 1024


def hex_color(hue, sat=0.65, light=0.55):
    r, g, b = colorsys.hls_to_rgb((hue % 360) / 360, light, sat)
    return '#%02x%02x%02x' % (round(r * 255), round(g * 255), round(b * 255))


def write(rel, text):
    path = os.path.join(OUT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)
    return path


def svg(width, height, body, defs=''):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">{f"<defs>{defs}</defs>" if defs else ""}{body}</svg>\n')


def gradient(gid, hues, light=0.55, angle_x2='100%', angle_y2='100%'):
    stops = ''.join(f'<stop offset="{i / (len(hues) - 1):.2f}" stop-color="{hex_color(h, light=light)}"/>'
                    for i, h in enumerate(hues))
    return f'<linearGradient id="{gid}" x1="0" y1="0" x2="{angle_x2}" y2="{angle_y2}">{stops}</linearGradient>'


def abstract_art(seed, width, height, hues=None, shapes=14):
    """Gradient field with soft translucent circles and one flowing line: brand-neutral decoration."""
    rng = random.Random(seed)
    base = rng.uniform(0, 360)
    hues = hues or [base, base + 35, base + 70]
    defs = gradient('bg', hues, light=0.42)
    body = f'<rect width="{width}" height="{height}" fill="url(#bg)"/>'
    for _ in range(shapes):
        cx, cy = rng.uniform(0, width), rng.uniform(0, height)
        r = rng.uniform(0.04, 0.22) * width
        body += f'<circle cx="{cx:.0f}" cy="{cy:.0f}" r="{r:.0f}" fill="#fff" fill-opacity="{rng.uniform(0.04, 0.14):.2f}"/>'
    points = [(x, height * (0.5 + 0.3 * rng.uniform(-1, 1))) for x in range(0, width + 1, width // 6)]
    path = f'M{points[0][0]},{points[0][1]:.0f}' + ''.join(
        f' S{x - width // 12},{y + rng.uniform(-60, 60):.0f} {x},{y:.0f}' for x, y in points[1:])
    body += f'<path d="{path}" fill="none" stroke="#fff" stroke-opacity=".35" stroke-width="{width / 300:.1f}"/>'
    return defs, body


def model_card(slug, name):
    defs, body = abstract_art('model:' + slug, 640, 360, shapes=8)
    body += ('<text x="40" y="316" font-family="Inter, system-ui, sans-serif" font-size="36" '
             f'font-weight="600" fill="#fff">{escape(name)}</text>')
    return svg(640, 360, body, defs)


def paper_card(pid):
    rng = random.Random('paper:' + pid)
    defs, body = abstract_art('paper:' + pid, 640, 360, shapes=6)
    nodes = [(rng.uniform(60, 580), rng.uniform(50, 310)) for _ in range(9)]
    for (x1, y1), (x2, y2) in zip(nodes, nodes[1:]):
        body += f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" stroke="#fff" stroke-opacity=".5"/>'
    body += ''.join(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="6" fill="#fff" fill-opacity=".85"/>' for x, y in nodes)
    return svg(640, 360, body, defs)


def season_card(season):
    rng = random.Random(season)
    hues = [205, 220, 245] if season.startswith('winter') else [95, 140, 330]
    defs, body = abstract_art(season, 1200, 630, hues=hues, shapes=10)
    for _ in range(40):
        x, y, r = rng.uniform(0, 1200), rng.uniform(0, 630), rng.uniform(2, 7)
        body += f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{r:.1f}" fill="#fff" fill-opacity=".6"/>'
    return svg(1200, 630, body, defs)


def news_cover(name):
    defs, body = abstract_art('news:' + name, 1200, 630)
    return svg(1200, 630, body, defs)


def escape(text):
    return text.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')


def wordmark(name):
    """Neutral-gray wordmark; a fixed fill because an <img> cannot inherit currentColor."""
    rng = random.Random('customer:' + name)
    width = round(48 + len(name) * 11)
    shape = rng.choice([
        '<circle cx="16" cy="20" r="11"/>',
        '<rect x="5" y="9" width="22" height="22" rx="5"/>',
        '<path d="M16 7 L28 31 L4 31 Z"/>',
        '<path d="M5 20 L16 8 L27 20 L16 32 Z"/>',
    ])
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="40" viewBox="0 0 {width} 40" '
            f'role="img" aria-label="{escape(name)}"><g fill="{GRAY}">{shape}<text x="36" y="26" '
            'font-family="Inter, system-ui, sans-serif" font-size="17" font-weight="600" '
            f'letter-spacing="-.2">{escape(name)}</text></g></svg>\n')


def product_icons(key, spectrum):
    glyph = PRODUCT_GLYPHS[key]
    frame = ('<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" '
             'stroke-width="1.75" stroke-linecap="round" stroke-linejoin="round" stroke="{stroke}">{defs}{glyph}</svg>\n')
    write(f'icons/{key}.svg', frame.format(stroke=GRAY, defs='', glyph=glyph))
    # Gradient strokes need userSpaceOnUse: a horizontal or vertical line has a zero-size bounding box.
    for variant, light in (('dark', 0.7), ('light', 0.42)):
        stops = ''.join(f'<stop offset="{i / 2:.1f}" stop-color="{hex_color(h, 0.75, light)}"/>' for i, h in enumerate(spectrum))
        defs = f'<defs><linearGradient id="g" gradientUnits="userSpaceOnUse" x1="2" y1="2" x2="22" y2="22">{stops}</linearGradient></defs>'
        write(f'icons/{key}-{variant}.svg', frame.format(stroke='url(#g)', defs=defs, glyph=glyph))


def wechat_qr(data):
    import qrcode
    qr = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=2)
    qr.add_data(data)
    qr.make(fit=True)
    matrix = qr.get_matrix()
    n = len(matrix)
    path = ''.join(f'M{x},{y}h1v1h-1z' for y, row in enumerate(matrix) for x, on in enumerate(row) if on)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 {n} {n}" '
            f'shape-rendering="crispEdges" role="img" aria-label="WeChat QR code"><rect width="{n}" height="{n}" fill="#fff"/>'
            f'<path d="{path}" fill="#111827"/></svg>\n')


def rasterise(svg_path):
    base = svg_path[:-4]
    with tempfile.TemporaryDirectory() as tmp:
        png = os.path.join(tmp, 'cover.png')
        subprocess.run(['rsvg-convert', '-w', '1200', '-h', '630', '-o', png, svg_path], check=True)
        subprocess.run(['cwebp', '-quiet', '-q', '78', png, '-o', base + '.webp'], check=True)
        subprocess.run(['avifenc', '-j', 'all', '--min', '20', '--max', '40', png, base + '.avif'],
                       check=True, stdout=subprocess.DEVNULL)


def read(rel):
    with open(os.path.join(CONTENT, rel)) as f:
        return f.read()


def main():
    models = read('models.ts')
    for slug, name in re.findall(r"slug: '([^']+)',\n\s+name: '([^']+)'", models):
        write(f'models/{slug}.svg', model_card(slug, name))
    for pid in re.findall(r"^\s+id: '([^']+)',\n\s+models:", read('papers.ts'), re.M):
        write(f'papers/{pid}.svg', paper_card(pid))
    for group in re.findall(r"customers\(([^)]*)\)", read('customers.ts')):
        for name in re.findall(r"'([^']+)'", group):
            slug = re.sub(r'^-|-$', '', re.sub(r'[^a-z0-9]+', '-', name.lower().replace('&', 'and')))
            write(f'customers/{slug}.svg', wordmark(name))
    for key, hues in re.findall(r"key: '([^']+)',[\s\S]*?spectrum: \[([^\]]+)\]", read('products.ts')):
        product_icons(key, [float(h) for h in hues.split(',')])
    for vendor, art in MARKETPLACE.items():
        write(f'marketplace/{vendor}.svg', art)
    for icon, glyph in SOCIAL_GLYPHS.items():
        write(f'socials/{icon}.svg', glyph.replace('STROKE', GRAY))
    write('socials/wechat-qr.svg', wechat_qr('https://lodestar.example/wechat'))
    covers = [write(f'news/{name[:-3]}.svg', news_cover(name))
              for name in sorted(os.listdir(os.path.join(CONTENT, 'news'))) if name.endswith('.md')]
    covers += [write(f'jobs/{s}.svg', season_card(s)) for s in ('winter-2025', 'spring-2026')]
    for cover in covers:
        rasterise(cover)
    too_big = [os.path.join(d, f) for d, _, fs in os.walk(OUT) for f in fs if os.path.getsize(os.path.join(d, f)) > MAX_BYTES]
    if too_big:
        sys.exit('over 40 KB: ' + ', '.join(too_big))


if __name__ == '__main__':
    main()
