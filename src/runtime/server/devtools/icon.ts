/**
 * The tab's icon, served by the dev server itself: Nuxt DevTools shows an icon given as a path
 * (`/…`) as an image, and looks any other name up in Iconify over the network.
 */
export const DEVTOOLS_ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" fill="none" stroke="#888" stroke-width="2" stroke-linejoin="round"><path d="M5 6h22v15H14l-6 5v-5H5z"/><path d="M11 12h10M11 16h6" stroke-linecap="round"/></svg>`
