/**
 * Start's build manifest (`tanstack-start-manifest:v`) for its handler in process: a root with a client entry
 * and its preloads, as a build writes it, so live pages come out shaped as a build's do (the live deferral
 * middleware rewrites exactly that markup). No file behind them is served here.
 */
export const tsrStartManifest = () => ({
  routes: {
    __root__: {
      preloads: ['/assets/index-test.js', '/assets/site-test.js'],
      scripts: [{ attrs: { type: 'module', async: true, src: '/assets/index-test.js' } }],
    },
  },
})
