import type { Random } from './random-source.js';

/** How shoppers and sellers really misspell the shop's commonest words. */
export const COMMON_MISSPELLINGS: Readonly<Record<string, readonly string[]>> = {
  samsung: ['samsng', 'samsug', 'sumsung', 'samsang'],
  iphone: ['iphnoe', 'ipone', 'iphon', 'ifone'],
  charger: ['chargr', 'charjer', 'chager'],
  original: ['orignal', 'orginal', 'origional'],
  condition: ['condtion', 'conditon', 'condision'],
  battery: ['batery', 'battary', 'batrey'],
  laptop: ['laptp', 'labtop', 'leptop'],
  lenovo: ['lenova', 'lenevo'],
  huawei: ['huwei', 'hauwei', 'huawie'],
  xiaomi: ['xiomi', 'xaomi', 'shaomi'],
  airpods: ['airpod', 'airpdos', 'earpods'],
  warranty: ['warenty', 'waranty'],
  negotiable: ['negotable', 'negociable'],
  delivery: ['delivary', 'delevery'],
  scratches: ['scraches', 'scratchs'],
  sealed: ['sealled', 'seald'],
  macbook: ['mackbook', 'macbok'],
  galaxy: ['galaxi', 'galaxey'],
  thinkpad: ['thinkpard', 'tinkpad'],
  elitebook: ['elitbook', 'elitebok'],
  excellent: ['excelent', 'exellent'],
  available: ['availabe', 'avaliable'],
  accessories: ['accesories', 'acessories'],
  processor: ['procesor', 'processer'],
  infinix: ['infinx', 'infinics'],
  tecno: ['techno', 'tekno'],
  screen: ['screan', 'scren'],
  unlocked: ['unlocke', 'unlockd'],
};

const VOWELS = 'aeiou';

/**
 * A word as someone typing fast writes it: a known misspelling when the word has one, else one
 * slip of the keys (a letter dropped, doubled, swapped with the next, or a vowel changed).
 */
export function misspell(random: Random, word: string): string {
  const known = COMMON_MISSPELLINGS[word.toLowerCase()];
  if (known) return known[Math.floor(random() * known.length)]!;
  if (word.length < 4) return word;
  const at = 1 + Math.floor(random() * (word.length - 2));
  const slip = random();
  if (slip < 0.3) return word.slice(0, at) + word.slice(at + 1);
  if (slip < 0.5) return word.slice(0, at) + word[at] + word.slice(at);
  if (slip < 0.8) return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
  const vowel = VOWELS[Math.floor(random() * VOWELS.length)]!;
  return VOWELS.includes(word[at]!) ? word.slice(0, at) + vowel + word.slice(at + 1) : word.slice(0, at) + vowel + word.slice(at);
}
