import { WeightedPicker, type Random } from './random-source.js';

/**
 * The Amharic a shop in Addis Ababa writes listings in, most frequent first: shop words, product
 * words, colours, places, and the shop's nouns again with the prepositions Amharic writes onto the
 * word (የ of, በ with, ለ for, ከ from), so a search for a word meets its written forms too.
 */
const SHOP_WORDS = `አዲስ ስልክ ዋጋ ብር ይሸጣል ለሽያጭ ንጹህ በጣም ጥሩ ኦሪጅናል ያገለገለ ምንም ችግር የለበትም ይደውሉ ቻርጀር ባትሪ
ሳጥን ከነሳጥኑ ላፕቶፕ ታብሌት ሰዓት ስማርት ሞባይል ኮምፒውተር ማዳመጫ የጆሮ ይገኛል አለ አሉ ብቻ ቅናሽ በቅናሽ ድርድር ይቻላል
ዋስትና ወር ዓመት ቀን ሳምንት ሜሞሪ ራም ስክሪን ካሜራ ሲም ካርድ ኬብል ሽፋን ኬዝ ዕቃ እቃ ሱቅ ገበያ ሽያጭ ግዢ ክፍያ ባንክ ቴሌብር
ቀለም ጥራት ፍጥነት ኃይል ድምጽ ብርሃን ውሃ አቧራ መከላከያ ኔትወርክ ኢንተርኔት ዋይፋይ ብሉቱዝ ማከማቻ ፕሮሰሰር ኪቦርድ ማውዝ
ስፒከር ማይክ የጣት አሻራ ፊት መለያ ቁጥር አድራሻ ከተማ ሰፈር ተማሪ ቢሮ ስራ ጨዋታ ልጆች ቤተሰብ ስጦታ በዓል ደንበኛ ደንበኞች
ባለቤት ነጋዴ ያገለገለ ምርጥ ትንሽ ትልቅ ቀጭን ቀላል ከባድ ፈጣን ጠንካራ ዘመናዊ ውድ ርካሽ ሙሉ ጤነኛ የታሸገ ያልተከፈተ ያልተነካ
ሁለተኛ እጅ ጥቁር ነጭ ሰማያዊ ቀይ አረንጓዴ ቢጫ ወርቃማ ብርማ ግራጫ ሮዝ ሐምራዊ የለም ደውሉ ያግኙን ይምጡ ኑ ይጎብኙን
እናደርሳለን እንገዛለን እንቀይራለን አይቻልም ተደራዳሪ ቋሚ ዛሬ ነገ አሁን ቶሎ በፍጥነት በነፃ በተመጣጣኝ ተመጣጣኝ ከውጭ የመጣ
ከዱባይ ከአሜሪካ እንከን ጭረት ስብራት ተቀይሮ አልተቀየረም አልተከፈተም ይሰራል በደንብ ሁሉም ነገር ጋር እና ወይም ነው ናቸው ያለው
ያላት የሚሰራ የሚሆን ለተማሪዎች ለቢሮ ለጨዋታ ማድረስ ዴሊቨሪ ቴሌግራም ዋትስአፕ ስልካችን አመሰግናለሁ እንኳን ደህና መጡ
ቦሌ ፒያሳ መርካቶ ካዛንቺስ መገናኛ ሳሪስ ጀሞ ለቡ አያት ገርጂ አዲስ አበባ አዳማ ሀዋሳ ጎንደር መቀሌ ድሬዳዋ ጅማ ባህር ዳር
ሳምሰንግ አይፎን አፕል ሁዋዌ ቴክኖ ኢንፊኒክስ አይቴል ሻዎሚ ሬድሚ ኦፖ ኖኪያ ሌኖቮ ዴል ኤችፒ ማክቡክ አይፓድ ጋላክሲ ኤርፖድስ ኦራይሞ
ጊጋ ቴራ ኢንች ሚሊ ሜትር ፕሮ ማክስ አልትራ ፕላስ ሚኒ ጌሚንግ ግራፊክስ ካርድ ዊንዶውስ ሶፍትዌር አፕሊኬሽን ሲስተም ቻርጅ
ፈጣን ቻርጅ የሚያደርግ ረጅም ቆይታ ሰዓታት ያህል ልክ እንደ አዲስ ለአገልግሎት ዝግጁ ዋናው ኮፒ ቅጂ ምትክ ተጨማሪ ስጦታዎች
መስታወት ስክሪን ፕሮቴክተር ከጀርባ ከፊት በኩል ምንም ጭረት የሌለው ስራ ላይ ያልዋለ ጥቂት ጊዜ የተጠቀምኩበት ፍላጎት ያላችሁ`.split(/\s+/);

/** Nouns that take the prepositions written onto them. */
const PREFIXED_NOUNS = `ስልክ ላፕቶፕ ታብሌት ሰዓት ሞባይል ኮምፒውተር ቻርጀር ባትሪ ሳጥን ስክሪን ካሜራ ሜሞሪ ሲም ኬብል ሽፋን ሱቅ ገበያ ዋጋ ብር
ቅናሽ ዋስትና ወር ዓመት ቀለም ጥራት ድምጽ ውሃ ኔትወርክ ኢንተርኔት ተማሪ ቢሮ ስራ ጨዋታ ልጆች ቤተሰብ ስጦታ በዓል ደንበኛ ከተማ
ሰፈር ቦሌ ፒያሳ መርካቶ ዱባይ አሜሪካ ባንክ ቴሌብር ካርድ ኪቦርድ ፕሮሰሰር ማከማቻ ጨዋታዎች ሰዓታት እጅ ሳምንት ቀን ኃይል
መከላከያ አድራሻ ቁጥር ባለቤት ነጋዴ ሳምሰንግ አይፎን አፕል`.split(/\s+/);

const PREFIXES = ['የ', 'በ', 'ለ', 'ከ'];

function rankedWords(): string[] {
  const words = [...SHOP_WORDS];
  for (const prefix of PREFIXES) for (const noun of PREFIXED_NOUNS) words.push(`${prefix}${noun}`);
  return [...new Set(words.filter((word) => word !== ''))];
}

/** Every Amharic word of the catalogue, most frequent first. */
export const AMHARIC_WORDS: readonly string[] = rankedWords();

const picker = new WeightedPicker(
  AMHARIC_WORDS,
  AMHARIC_WORDS.map((_, rank) => 1 / (rank + 2)),
);

/** An Amharic word drawn by a Zipf law over the ranks. */
export function amharicWord(random: Random): string {
  return picker.pick(random);
}

/** What each default category's product is called in Amharic. */
export const AMHARIC_PRODUCT: Record<string, string> = {
  PHONES: 'ስልክ',
  TABLETS_LAPTOPS: 'ታብሌት',
  LAPTOPS: 'ላፕቶፕ',
  EARBUDS: 'የጆሮ ማዳመጫ',
  SMARTWATCHES: 'ስማርት ሰዓት',
};

/** Brands as they are written in Amharic, where shops write them so. */
export const AMHARIC_BRANDS: Record<string, string> = {
  Samsung: 'ሳምሰንግ',
  Apple: 'አፕል',
  Huawei: 'ሁዋዌ',
  Tecno: 'ቴክኖ',
  Infinix: 'ኢንፊኒክስ',
  itel: 'አይቴል',
  Xiaomi: 'ሻዎሚ',
  Oppo: 'ኦፖ',
  Nokia: 'ኖኪያ',
  Lenovo: 'ሌኖቮ',
  Dell: 'ዴል',
  HP: 'ኤችፒ',
  Oraimo: 'ኦራይሞ',
};
