/** The widths a storefront card or gallery asks for; each photo gets those narrower than itself. */
export const RENDITION_WIDTHS = [320, 640] as const;

/** The rendition widths a photo of this width gets: never one as wide as the photo or wider (that is the photo itself). */
export function renditionWidthsFor(width: number): number[] {
  return RENDITION_WIDTHS.filter((renditionWidth) => renditionWidth < width);
}

