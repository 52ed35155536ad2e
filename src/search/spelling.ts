import { distance } from "fastest-levenshtein";

/** Whether `b` is `a` with two neighbouring letters swapped (Aurroa, Riversdie, hieght). */
function swappedOnce(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let first = -1;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (first >= 0) return i === first + 1 && a[first] === b[i] && a[i] === b[first] && a.slice(i + 1) === b.slice(i + 1);
    first = i;
  }
  return false;
}

/** How many typing slips tell two words apart: letters wrong, missing or extra, a swap of two neighbours counting as one. */
export const typoDistance = (a: string, b: string): number => (swappedOnce(a, b) ? 1 : distance(a, b));
