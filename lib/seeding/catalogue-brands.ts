import { randomSource, WeightedPicker, type Random } from './random-source.js';

/**
 * The brands a shop of phones, computers and wearables carries, by default category, each with its
 * models, the model codes printed on them (`SM-A546E`, `A2403`, `MLPF3ZP/A`), and for laptops the
 * processors (`i7-1165G7`) and graphics (`RTX 3060`) they ship with. Well-known brands carry the
 * weight (Samsung and Apple most); a long tail of rare brands, some written with accents or in
 * capitals, carries little.
 */

export type CatalogueCategory = 'PHONES' | 'TABLETS_LAPTOPS' | 'LAPTOPS' | 'EARBUDS' | 'SMARTWATCHES';

export interface CatalogueModel {
  brand: string;
  name: string;
  /** Model numbers or part numbers printed on the device. */
  codes: readonly string[];
  /** Laptops: processor models (`i7-1165G7`, `Ryzen 7 5800H`, `M2`). */
  processors: readonly string[];
  /** Laptops: discrete graphics (`RTX 3060`); none means integrated. */
  graphics: readonly string[];
  /** Tablets: the processor option of the category's rules; watches: the case sizes it comes in. */
  fixed: readonly string[];
  /** How much dearer than the category's typical price this model sells, as a factor. */
  priceFactor: number;
}

export interface BrandOffer {
  brand: string;
  models: readonly CatalogueModel[];
}

/**
 * A model line: `name=code,code|extra,extra`. For laptops the codes are processors and the extras
 * graphics (a part number such as `MGN63ZP/A` is told from a processor by its shape); for tablets
 * the extra is the processor option; for watches the case sizes.
 */
type Line = string;
type BrandLines = readonly [brand: string, weight: number, lines: readonly Line[]];

const PHONES: readonly BrandLines[] = [
  ['Samsung', 24, [
    'Galaxy A54 5G=SM-A546E,SM-A546B', 'Galaxy A34 5G=SM-A346E', 'Galaxy A24=SM-A245F', 'Galaxy A14=SM-A145F', 'Galaxy A14 5G=SM-A146P',
    'Galaxy A04s=SM-A047F', 'Galaxy A05s=SM-A057F', 'Galaxy A15=SM-A155F', 'Galaxy A25 5G=SM-A256E', 'Galaxy A35 5G=SM-A356E',
    'Galaxy A55 5G=SM-A556E', 'Galaxy A13=SM-A135F', 'Galaxy A23=SM-A235F', 'Galaxy A33 5G=SM-A336E', 'Galaxy A53 5G=SM-A536E',
    'Galaxy A73 5G=SM-A736B', 'Galaxy A52=SM-A525F', 'Galaxy A32=SM-A325F', 'Galaxy A12=SM-A125F', 'Galaxy S20 FE=SM-G780F',
    'Galaxy S21=SM-G991B', 'Galaxy S21 Ultra=SM-G998B', 'Galaxy S22=SM-S901E', 'Galaxy S22 Ultra=SM-S908E', 'Galaxy S23=SM-S911B',
    'Galaxy S23 Ultra=SM-S918B', 'Galaxy S24=SM-S921B', 'Galaxy S24 Ultra=SM-S928B', 'Galaxy Note 20 Ultra=SM-N986B',
    'Galaxy Note 10 Plus=SM-N975F', 'Galaxy Z Flip 5=SM-F731B', 'Galaxy Z Fold 5=SM-F946B', 'Galaxy M14=SM-M146B',
  ]],
  ['Apple', 21, [
    'iPhone XR=A2105,MRY42LL/A', 'iPhone XS Max=A2101', 'iPhone 11=A2221,MWLT2LL/A', 'iPhone 11 Pro=A2215', 'iPhone 11 Pro Max=A2218',
    'iPhone 12=A2403,MGJA3LL/A', 'iPhone 12 mini=A2399', 'iPhone 12 Pro=A2407', 'iPhone 12 Pro Max=A2411,MGDA3ZP/A',
    'iPhone 13=A2633,MLPF3ZP/A,MLPG3LL/A', 'iPhone 13 mini=A2628', 'iPhone 13 Pro=A2638,MLVD3ZP/A', 'iPhone 13 Pro Max=A2643,MLLA3LL/A',
    'iPhone SE 2022=A2783', 'iPhone 14=A2882,MPUF3LL/A', 'iPhone 14 Plus=A2886', 'iPhone 14 Pro=A2890,MQ0G3LL/A',
    'iPhone 14 Pro Max=A2894,MQ8T3ZP/A', 'iPhone 15=A3090,MTP03AE/A', 'iPhone 15 Plus=A3094', 'iPhone 15 Pro=A3102,MTUV3LL/A',
    'iPhone 15 Pro Max=A3106,MU773AE/A', 'iPhone 16=A3287', 'iPhone 16 Pro=A3293', 'iPhone 16 Pro Max=A3296',
  ]],
  ['Tecno', 9, [
    'Spark 10 Pro=KI7', 'Spark 20=KJ5', 'Spark 20 Pro=KJ6', 'Spark Go 2024=BG6', 'Camon 20=CK6n', 'Camon 20 Pro=CK7n', 'Camon 30=CL6',
    'Pova 5=LH7n', 'Pova 6 Pro=LI9', 'Phantom X2=AD8', 'Pop 7=BF6', 'Spark 10C=KI5k',
  ]],
  ['Infinix', 7, [
    'Hot 30=X6831', 'Hot 30i=X669', 'Hot 40 Pro=X6837', 'Note 30=X6833B', 'Note 30 Pro=X678B', 'Note 40=X6853', 'Smart 7=X6515',
    'Smart 8=X6525', 'Zero 30=X6731', 'GT 20 Pro=X6871',
  ]],
  ['Xiaomi', 8, [
    'Redmi Note 12=23021RAA2Y', 'Redmi Note 12 Pro=22101316G', 'Redmi Note 13=23129RAA4G', 'Redmi Note 13 Pro=23117RA68G',
    'Redmi 12=23053RN02A', 'Redmi 13C=23108RN04Y', 'Redmi A2=23028RN4DG', 'Poco X5 Pro=22101320G', 'Poco F5=23049PCD8G',
    'Xiaomi 13T=2306EPN60G', 'Xiaomi 14=23127PN0CG', 'Redmi Note 11=2201117TG',
  ]],
  ['itel', 4, ['A70=A665L', 'A60s=A662L', 'P40=P662L', 'S23=S665L', 'Vision 3=S661LP', 'P55=P661N']],
  ['Huawei', 3, [
    'P30 Pro=VOG-L29', 'P40 Pro=ELS-NX9', 'Mate 20 Pro=LYA-L29', 'Nova 9=NAM-LX9', 'Nova 11=FOA-LX9', 'Y9 Prime 2019=STK-L21',
    'P60 Pro=MNA-LX9', 'Mate 50 Pro=DCO-LX9',
  ]],
  ['Oppo', 3, ['A17=CPH2477', 'A57=CPH2387', 'A78=CPH2565', 'Reno 8=CPH2359', 'Reno 10=CPH2531', 'Find X5 Pro=CPH2305', 'A98=CPH2529']],
  ['Vivo', 2.5, ['Y16=V2204', 'Y22=V2207', 'Y36=V2247', 'V27=V2231', 'V29=V2250', 'X80 Pro=V2185']],
  ['Realme', 2, ['C55=RMX3710', 'C53=RMX3760', 'Realme 11 Pro=RMX3771', 'C33=RMX3624', 'GT Neo 3=RMX3561']],
  ['Nokia', 2, ['G21=TA-1418', 'C32=TA-1534', 'G42 5G=TA-1581', 'X30 5G=TA-1450', '105=TA-1557', '3310=TA-1030']],
  ['Google', 1.5, ['Pixel 6=GB7N6', 'Pixel 6 Pro=G8VOU', 'Pixel 7=GVU6C', 'Pixel 7 Pro=GP4BC', 'Pixel 7a=GWKK3', 'Pixel 8=GKWS6', 'Pixel 8 Pro=GC3VE', 'Pixel 9=GUR25']],
  ['OnePlus', 1.2, ['Nord CE 3 Lite=CPH2465', 'OnePlus 9 Pro=LE2123', 'OnePlus 10 Pro=NE2213', 'OnePlus 11=CPH2449', 'OnePlus 12=CPH2581', 'Nord 3=CPH2493']],
  ['Honor', 1, ['X8=TFY-LX1', 'X9a=RMO-NX1', 'Magic5 Pro=PGT-N19', 'Honor 90=REA-NX9', 'X7b=CLK-LX1']],
  ['Motorola', 1, ['Moto G84=XT2347-2', 'Moto G54=XT2343-2', 'Edge 40=XT2303-2', 'Moto E13=XT2345-3', 'Razr 40 Ultra=XT2321-1']],
  ['Sony', 0.5, ['Xperia 1 V=XQ-DQ72', 'Xperia 5 IV=XQ-CQ72', 'Xperia 10 V=XQ-DC72']],
  ['LG', 0.4, ['V60 ThinQ=LM-V600', 'Velvet=LM-G900', 'G8 ThinQ=LM-G820']],
  ['ZTE', 0.4, ['Blade A72=7540N', 'Blade V40=8046', 'Nubia Red Magic 8 Pro=NX729J']],
  ['Nothing', 0.3, ['Phone (1)=A063', 'Phone (2)=A065', 'Phone (2a)=A142']],
  ['Alcatel', 0.3, ['1B=5031G', '3L=5029Y']],
  ['TCL', 0.3, ['40 SE=T610K', '30 SE=6165H']],
  ['Asus', 0.2, ['ROG Phone 6=AI2201', 'Zenfone 9=AI2202']],
  ['Oukitel', 0.2, ['WP21=WP21', 'C33=C33']],
  ['Ulefone', 0.2, ['Armor 21=Armor21', 'Note 16 Pro=Note16P']],
  ['Doogee', 0.2, ['S100=S100', 'V30=V30']],
  ['Blackview', 0.2, ['BV9300=BV9300', 'A96=A96']],
  ['Hisense', 0.1, ['Infinity H50=HLTE230E']],
  ['BlackBerry', 0.1, ['KEYone=BBB100-1', 'Key2=BBF100-1']],
  ['HTC', 0.1, ['U23 Pro=2QC9100', 'Desire 22 Pro=2QBK100']],
  ['Lenovo', 0.1, ['K14 Plus=XT2229-2']],
  ['Cubot', 0.1, ['KingKong 9=KK9']],
  ['Umidigi', 0.1, ['Bison 2=BS2']],
  ['Meizu', 0.1, ['20 Pro=M391Q']],
  ['Gionee', 0.08, ['P15 Pro=F10']],
  ['CAT', 0.05, ['S62 Pro=S62P']],
  ['Sharp', 0.05, ['Aquos R8=SH-52D']],
  ['Wiko', 0.05, ['T10=W-V673']],
  ['BLU', 0.05, ['G91 Pro=G0550']],
  ['Fairphone', 0.05, ['Fairphone 5=FP5']],
  ['Kyocera', 0.03, ['DuraForce Ultra 5G=E7110']],
  ['Lava', 0.03, ['Agni 2=LXX505']],
  ['Micromax', 0.03, ['IN Note 2=E7748']],
  ['Vertu', 0.01, ['Aster P=VTL-202']],
];

const TABLETS: readonly BrandLines[] = [
  ['Apple', 30, [
    'iPad 9th Gen=A2602|Other', 'iPad 10th Gen=A2696,MPQ03LL/A|Apple A14 Bionic', 'iPad mini 6=A2567|Apple A15 Bionic',
    'iPad mini 7=A2993|Apple A17 Pro', 'iPad Air 5=A2588,MM9C3LL/A|Apple M1', 'iPad Air 11 M2=A2902|Apple M2',
    'iPad Pro 11 M2=A2759|Apple M2', 'iPad Pro 12.9 M2=A2436|Apple M2', 'iPad Pro 11 M4=A2836|Apple M4', 'iPad 11th Gen=A3354|Apple A16 Bionic',
  ]],
  ['Samsung', 24, [
    'Galaxy Tab A8=SM-X200|Other', 'Galaxy Tab A9=SM-X110|MediaTek', 'Galaxy Tab A9+=SM-X210|Qualcomm Snapdragon',
    'Galaxy Tab S6 Lite=SM-P613|Qualcomm Snapdragon', 'Galaxy Tab S7=SM-T870|Qualcomm Snapdragon', 'Galaxy Tab S8=SM-X700|Qualcomm Snapdragon',
    'Galaxy Tab S9=SM-X710|Qualcomm Snapdragon', 'Galaxy Tab S9 FE=SM-X510|Other',
  ]],
  ['Lenovo', 8, [
    'Tab M10 Plus=TB-125F|MediaTek', 'Tab P11=TB-J606F|Qualcomm Snapdragon', 'Tab M9=TB-310FU|MediaTek', 'Yoga Tab 11=YT-J706F|MediaTek',
    'ThinkPad X12 Detachable=20UW|Intel Core i5',
  ]],
  ['Microsoft', 7, [
    'Surface Pro 7=1866|Intel Core i5', 'Surface Pro 8=1983|Intel Core i7', 'Surface Pro 9=2038|Intel Core i5', 'Surface Go 3=1901|Other',
    'Surface Pro X=1876|Qualcomm Snapdragon',
  ]],
  ['Huawei', 3, ['MatePad 11=DBY-W09|Qualcomm Snapdragon', 'MatePad T10s=AGS3-L09|Other', 'MatePad SE=AGS5-W09|Other']],
  ['Xiaomi', 3, ['Pad 6=23043RP34G|Qualcomm Snapdragon', 'Redmi Pad SE=23073RPBFG|Qualcomm Snapdragon', 'Redmi Pad=22081283G|MediaTek']],
  ['Amazon', 2, ['Fire HD 10=T76N2B|MediaTek', 'Fire HD 8=R2SP8T|MediaTek', 'Fire 7=P8AT8Z|MediaTek']],
  ['Tecno', 1, ['Megapad 10=T1101|MediaTek']],
  ['Honor', 0.8, ['Pad X9=ELN-W09|Qualcomm Snapdragon']],
  ['Realme', 0.6, ['Pad 2=RMP2204|MediaTek']],
  ['Nokia', 0.5, ['T20=TA-1392|Other']],
  ['Asus', 0.4, ['ROG Flow Z13=GZ301|Intel Core i7']],
  ['HP', 0.4, ['Elite x2 G8=2H0N0AV|Intel Core i5']],
  ['Dell', 0.4, ['Latitude 7320 Detachable=T04J|Intel Core i5']],
  ['Oppo', 0.3, ['Pad Air=OPD2102|Qualcomm Snapdragon']],
  ['OnePlus', 0.3, ['Pad=OPD2203|MediaTek']],
  ['Teclast', 0.3, ['M40 Pro=P20HD|Other']],
  ['Alldocube', 0.2, ['iPlay 50=T1030X|Other']],
  ['Chuwi', 0.2, ['Hi10 X=CWI529|Other']],
  ['Atouch', 0.6, ['X19 Pro=X19|Other', 'A105 Kids=A105|Other']],
  ['Modio', 0.4, ['M20=M20|Other']],
];

const LAPTOPS: readonly BrandLines[] = [
  ['HP', 18, [
    'EliteBook 840 G5=i5-8350U,i7-8650U,i5-8250U', 'EliteBook 840 G6=i5-8365U,i7-8665U', 'EliteBook 840 G7=i5-10310U,i7-10610U',
    'EliteBook 840 G8=i5-1145G7,i7-1185G7', 'EliteBook 850 G5=i5-8350U,i7-8650U', 'EliteBook 830 G6=i5-8365U',
    'EliteBook x360 1030 G3=i7-8650U', 'ProBook 450 G7=i5-10210U,i7-10510U', 'ProBook 450 G8=i5-1135G7,i7-1165G7',
    'ProBook 440 G9=i5-1235U,i7-1255U', 'ProBook 640 G4=i5-7300U', 'Pavilion 15=i5-1135G7,i7-1165G7,Ryzen 5 5500U',
    'Pavilion x360 14=i5-1235U', 'Envy x360 13=Ryzen 7 5700U,i7-1165G7', 'Spectre x360 14=i7-1165G7,i7-1255U',
    'Victus 15=i5-12450H,Ryzen 5 5600H|GTX 1650,RTX 3050', 'Omen 16=i7-12700H,Ryzen 7 6800H|RTX 3060,RTX 3070 Ti',
    'ZBook Firefly 14 G8=i7-1165G7', 'ZBook 15 G6=i7-9850H|Quadro T2000', '250 G8=i3-1005G1,i5-1035G1',
    '255 G8=Ryzen 3 3250U,Ryzen 5 3500U', '15s-fq5000=i5-1235U', 'Chromebook 14=Celeron N4020',
  ]],
  ['Dell', 16, [
    'Latitude 5490=i5-8350U,i7-8650U', 'Latitude 5400=i5-8365U', 'Latitude 5410=i5-10310U', 'Latitude 5420=i5-1145G7,i7-1185G7',
    'Latitude 7490=i7-8650U,i5-8350U', 'Latitude 7400=i7-8665U', 'Latitude 7420=i7-1185G7', 'Latitude 3420=i5-1135G7',
    'Inspiron 15 3511=i5-1135G7,i3-1115G4', 'Inspiron 15 3520=i5-1235U,i7-1255U', 'Inspiron 14 5410=i7-11370H',
    'Vostro 3500=i5-1135G7', 'XPS 13 9310=i7-1165G7,i7-1185G7', 'XPS 13 9320=i7-1260P', 'XPS 15 9510=i7-11800H|RTX 3050 Ti',
    'XPS 15 9520=i7-12700H|RTX 3050 Ti', 'Precision 5560=i7-11850H|RTX A2000', 'G15 5520=i7-12700H|RTX 3060',
  ]],
  ['Lenovo', 16, [
    'ThinkPad T480=i5-8350U,i7-8650U', 'ThinkPad T490=i5-8265U,i7-8565U', 'ThinkPad T14 Gen 1=i5-10310U,Ryzen 5 PRO 4650U',
    'ThinkPad T14 Gen 2=i5-1135G7,i7-1165G7', 'ThinkPad T14 Gen 3=i5-1245U,i7-1265U', 'ThinkPad X1 Carbon Gen 6=i7-8650U',
    'ThinkPad X1 Carbon Gen 9=i7-1165G7,i7-1185G7', 'ThinkPad X1 Carbon Gen 11=i7-1365U', 'ThinkPad X280=i5-8350U',
    'ThinkPad X390=i5-8265U', 'ThinkPad L14 Gen 2=i5-1135G7', 'ThinkPad E14 Gen 2=i5-1135G7,Ryzen 5 4500U',
    'ThinkPad P52=i7-8850H|Quadro P1000', 'IdeaPad 3 15ITL6=i3-1115G4,i5-1135G7', 'IdeaPad 3 15ALC6=Ryzen 5 5500U',
    'IdeaPad 5 14ALC05=Ryzen 7 5700U', 'IdeaPad Slim 3=i5-1235U,Ryzen 5 7520U', 'IdeaPad Gaming 3=Ryzen 5 5600H|GTX 1650,RTX 3050',
    'Legion 5 15ACH6H=Ryzen 7 5800H|RTX 3060', 'Legion 5 Pro=Ryzen 7 6800H|RTX 3070', 'Legion Pro 5=i7-13700HX|RTX 4060',
    'Yoga 7i=i7-1260P', 'Yoga Slim 7=Ryzen 7 5800U', 'Yoga Slim 7x=Snapdragon X Elite', 'ThinkBook 15 G2=i5-1135G7', 'V15 G2=i3-1115G4',
  ]],
  ['Apple', 12, [
    'MacBook Air M1=M1,MGN63ZP/A,MGN93LL/A,MGND3LL/A', 'MacBook Air M2=M2,MLY33LL/A,MLXW3ZP/A', 'MacBook Air 15 M2=M2,MQKP3LL/A',
    'MacBook Air M3=M3,MRXN3LL/A', 'MacBook Pro 13 M1=M1,MYD82LL/A,MYDA2ZP/A', 'MacBook Pro 13 M2=M2,MNEH3LL/A',
    'MacBook Pro 14 M1 Pro=M1,MKGP3LL/A,MKGR3ZP/A', 'MacBook Pro 16 M1 Max=M1,MK1A3LL/A', 'MacBook Pro 14 M3=M3,MTL73LL/A',
    'MacBook Pro 16 M3 Max=M3,MUW63LL/A', 'MacBook Pro 14 M4=M4,MW2U3LL/A', 'MacBook Pro 13 2020=i5-1038NG7,MWP42LL/A',
  ]],
  ['Asus', 8, [
    'VivoBook 15 X515EA=i3-1115G4,i5-1135G7', 'VivoBook 15 M1502=Ryzen 5 5625U', 'VivoBook S14=i5-1240P',
    'ZenBook 14 UX425=i5-1135G7,i7-1165G7', 'ZenBook 14 OLED UM3402=Ryzen 7 5825U', 'ROG Strix G15 G513=Ryzen 7 5800H,Ryzen 9 5900HX|RTX 3060,RTX 3070',
    'ROG Zephyrus G14 GA401=Ryzen 9 5900HS|RTX 3060', 'TUF Gaming F15 FX506=i5-11400H,i7-11800H|GTX 1650,RTX 3050',
    'TUF Gaming A15 FA506=Ryzen 7 4800H|GTX 1660 Ti', 'ExpertBook B1=i5-1135G7', 'Chromebook C423=Celeron N3350',
  ]],
  ['Acer', 7, [
    'Aspire 5 A515-56=i5-1135G7,i7-1165G7', 'Aspire 3 A315-58=i3-1115G4', 'Aspire 7 A715-42G=Ryzen 5 5500U|GTX 1650',
    'Swift 3 SF314-511=i5-1135G7', 'Swift Go 14=i5-1335U', 'Nitro 5 AN515-57=i5-11400H,i7-11800H|RTX 3050,RTX 3060',
    'Nitro 5 AN515-45=Ryzen 5 5600H|GTX 1650', 'Predator Helios 300 PH315-54=i7-11800H|RTX 3060,RTX 3070',
    'Predator Helios Neo 16=i7-13700HX|RTX 4060', 'TravelMate P214=i5-1135G7', 'Extensa 15=i3-1115G4', 'Chromebook 314=Celeron N4020',
  ]],
  ['MSI', 3, [
    'GF63 Thin 10SC=i5-10500H|GTX 1650', 'GF63 Thin 11UC=i7-11800H|RTX 3050', 'Katana GF66=i7-11800H|RTX 3060', 'Katana 15=i7-12650H|RTX 4060',
    'Modern 14 B11M=i5-1155G7', 'Stealth 15M=i7-11375H|RTX 3060', 'Cyborg 15=i5-12450H|RTX 4050', 'Raider GE76=i9-12900HK|RTX 3080 Ti',
  ]],
  ['Microsoft', 2, [
    'Surface Laptop 3=i5-1035G7', 'Surface Laptop 4=i5-1145G7,Ryzen 5 4680U', 'Surface Laptop 5=i7-1265U', 'Surface Laptop Go 2=i5-1135G7',
    'Surface Book 3=i7-1065G7|GTX 1650',
  ]],
  ['Toshiba', 2, ['Satellite Pro C50=i5-8250U', 'Tecra A50=i5-8250U', 'Portege X30=i7-8550U']],
  ['Dynabook', 0.6, ['Tecra A40-J=i5-1135G7', 'Portege X40-K=i5-1240P']],
  ['Samsung', 1, ['Galaxy Book3=i5-1335U', 'Galaxy Book2 Pro=i7-1260P', 'Galaxy Book Flex2=i7-1165G7']],
  ['Huawei', 1, ['MateBook D 15=i5-1135G7,Ryzen 5 3500U', 'MateBook 14=i5-1135G7', 'MateBook X Pro=i7-1165G7']],
  ['Razer', 0.6, ['Blade 15=i7-10750H,i7-12800H|RTX 3070,RTX 3080', 'Blade 14=Ryzen 9 6900HX|RTX 3070 Ti']],
  ['Gigabyte', 0.5, ['G5 KC=i5-10500H|RTX 3060', 'Aorus 15=i7-12700H|RTX 3070 Ti', 'G5 MF=i5-12500H|RTX 4050']],
  ['Alienware', 0.5, ['m15 R6=i7-11800H|RTX 3070', 'x17 R2=i9-12900HK|RTX 3080 Ti', 'm16=i9-13900HX|RTX 4080']],
  ['LG', 0.4, ['gram 14=i5-1135G7', 'gram 17=i7-1260P']],
  ['Fujitsu', 0.5, ['Lifebook U749=i5-8365U', 'Lifebook E5410=i5-10210U']],
  ['Panasonic', 0.3, ['Toughbook CF-54=i5-7300U', 'Toughbook 55=i5-8365U']],
  ['Xiaomi', 0.3, ['RedmiBook 15=i5-11300H', 'Mi Notebook Pro=i7-11370H']],
  ['Chuwi', 0.2, ['HeroBook Pro=Celeron N4020', 'GemiBook X=Celeron N5100']],
  ['VAIO', 0.2, ['SX14=i7-1165G7', 'FE 15=i5-1235U']],
  ['Framework', 0.1, ['Laptop 13=i7-1260P']],
  ['Medion', 0.1, ['Akoya E15=i5-1135G7']],
  ['Compaq', 0.1, ['Presario 15=Celeron N4020']],
  ['Gateway', 0.05, ['GWTN156=Ryzen 5 3450U']],
  ['Getac', 0.05, ['B360=i5-10210U']],
  ['Machenike', 0.05, ['S16=i7-12700H|RTX 3050']],
  ['Teclast', 0.1, ['F15 Plus=Celeron N4120']],
];

const EARBUDS: readonly BrandLines[] = [
  ['Apple', 22, [
    'AirPods 2=A2032,MV7N2AM/A', 'AirPods 3=A2565,MME73ZM/A', 'AirPods Pro=A2084,MWP22AM/A', 'AirPods Pro 2=A2931,MTJV3AM/A,MQD83ZM/A',
    'AirPods 4=A3053', 'AirPods Max=A2096',
  ]],
  ['Samsung', 14, [
    'Galaxy Buds2=SM-R177', 'Galaxy Buds2 Pro=SM-R510', 'Galaxy Buds FE=SM-R400N', 'Galaxy Buds Live=SM-R180', 'Galaxy Buds Pro=SM-R190',
    'Galaxy Buds 3 Pro=SM-R630',
  ]],
  ['Oraimo', 12, ['FreePods 4=OEB-E104D', 'FreePods 3=OEB-E104DC', 'Riff=OEB-E02D', 'FreePods Lite=OEB-E04D', 'SpaceBuds=OEB-E106D', 'Necklace 3=OEB-E54D']],
  ['JBL', 6, ['Tune 230NC=JBLT230NCTWS', 'Wave Beam=JBLWBEAM', 'Live Pro 2=JBLLIVEPRO2TWS', 'Tune Flex=JBLTFLEX', 'Vibe 200TWS=JBLV200TWS', 'Tune 760NC=JBLT760NC']],
  ['Sony', 5, ['WF-1000XM4=WF1000XM4', 'WF-1000XM5=WF1000XM5', 'WF-C700N=WFC700N', 'WF-C500=WFC500', 'WH-1000XM4=WH1000XM4', 'WH-1000XM5=WH1000XM5', 'LinkBuds S=WF-LS900N']],
  ['Anker', 3, ['Soundcore Liberty 4=A3953', 'Soundcore Life P3=A3939', 'Soundcore Space A40=A3936', 'Soundcore R50i=A3949']],
  ['Xiaomi', 4, ['Redmi Buds 4 Active=M2232E1', 'Redmi Buds 5 Pro=M2317E1', 'Redmi AirDots 2=TWSEJ061LS', 'Buds 4 Pro=M2132E1']],
  ['Huawei', 2, ['FreeBuds 5i=T0014', 'FreeBuds Pro 2=T0010', 'FreeBuds SE 2=T0016']],
  ['QCY', 2, ['T13=T13', 'HT05=HT05', 'T13 ANC=T13ANC', 'HT07 ArcBuds=HT07', 'MeloBuds Pro=HT08']],
  ['Lenovo', 2, ['LP40 Pro=LP40PRO', 'LP1s=LP1S', 'XT88=XT88', 'HT38=HT38']],
  ['Tecno', 1.5, ['Sonic 1=BD01', 'Hipods H3=H3']],
  ['Infinix', 1.2, ['XBuds XE23=XE23', 'XBuds XE26=XE26']],
  ['itel', 1, ['T1 Neo=ITW-60', 'Buds Ace=ITW-A1']],
  ['Beats', 1.5, ['Studio Buds=A2512', 'Fit Pro=A2576', 'Powerbeats Pro=A2047', 'Solo Buds=A3011']],
  ['Bose', 1, ['QuietComfort Earbuds II=QCEII', 'QuietComfort Ultra Earbuds=QCUE', 'Sport Earbuds=SE774', 'QuietComfort 45=QC45']],
  ['Sennheiser', 0.6, ['Momentum True Wireless 3=MTW3', 'CX Plus=CXPLUS', 'Momentum 4=M4AEBT']],
  ['Jabra', 0.6, ['Elite 75t=OTE150', 'Elite 85t=OTE190', 'Elite 4 Active=OTE160']],
  ['Nothing', 0.5, ['Ear (2)=B155', 'Ear (a)=B162', 'Ear (stick)=B157']],
  ['OnePlus', 0.5, ['Buds Pro 2=E507A', 'Buds Z2=E504A', 'Nord Buds 2=E508A']],
  ['Realme', 0.5, ['Buds Air 5=RMA2301', 'Buds T100=RMA2109', 'Buds Q2=RMA2010']],
  ['Oppo', 0.4, ['Enco Air 3=ETE31', 'Enco Buds 2=ETE41', 'Enco X2=ETE01']],
  ['Skullcandy', 0.3, ['Indy Evo=S2IVW', 'Dime 3=S2DCW', 'Sesh Evo=S2TVW']],
  ['Edifier', 0.3, ['X3=TWS-X3', 'NeoBuds Pro=NBPRO', 'W240TN=W240TN']],
  ['Haylou', 0.4, ['GT1 Pro=GT1PRO', 'X1 Neo=X1NEO', 'W1=W1']],
  ['Baseus', 0.3, ['Bowie E9=NGTW120', 'WM01=NGWM01', 'Bowie MA10=A00054']],
  ['Marshall', 0.2, ['Motif ANC=MOTIFANC', 'Minor III=MINOR3', 'Mode II=MODE2']],
  ['Bang & Olufsen', 0.1, ['Beoplay EX=BEOEX', 'Beoplay E8 Sport=BEOE8S']],
  ['Audio-Technica', 0.1, ['ATH-M50xBT2=ATHM50XBT2', 'ATH-CKS50TW=ATHCKS50TW']],
  ['Shure', 0.05, ['Aonic 215=SE21DYBK']],
  ['AKG', 0.1, ['N400=N400NC', 'Y500=Y500BT']],
  ['Philips', 0.2, ['TAT2206=TAT2206BK', 'TAT1215=TAT1215BK']],
  ['Panasonic', 0.1, ['RZ-S500W=RZS500W']],
  ['Technics', 0.05, ['EAH-AZ80=EAHAZ80']],
  ['Soundpeats', 0.2, ['Air3 Deluxe HS=AIR3DHS', 'Mini Pro=MINIPRO']],
  ['Tozo', 0.1, ['T6=T6', 'NC2=NC2']],
  ['1More', 0.1, ['ComfoBuds Mini=ES603']],
  ['Creative', 0.05, ['Outlier Air V3=EF0990']],
  ['JLab', 0.05, ['Go Air Pop=GAPOP']],
  ['Urbanears', 0.05, ['Boo=BOO']],
  ['Hama', 0.05, ['Passion Clear=184087']],
  ['Honor', 0.3, ['Earbuds 3 Pro=ENYA-T00', 'Choice Earbuds X5=LCTWS005']],
];

const SMARTWATCHES: readonly BrandLines[] = [
  ['Apple', 24, [
    'Watch Series 7=A2474|41mm,45mm', 'Watch Series 8=A2771|41mm,45mm', 'Watch Series 9=A2978|41mm,45mm', 'Watch Series 10=A2997|42mm,46mm',
    'Watch SE 2nd Gen=A2722|40mm,44mm', 'Watch Ultra=A2684|49mm', 'Watch Ultra 2=A2986|49mm', 'Watch Series 6=A2292|40mm,44mm',
    'Watch Series 3=A1858|38mm,42mm',
  ]],
  ['Samsung', 16, [
    'Galaxy Watch4=SM-R860|40mm,44mm', 'Galaxy Watch4 Classic=SM-R880|42mm,46mm', 'Galaxy Watch5=SM-R900|40mm,44mm',
    'Galaxy Watch5 Pro=SM-R920|45mm', 'Galaxy Watch6=SM-R930|40mm,44mm', 'Galaxy Watch6 Classic=SM-R950|47mm',
    'Galaxy Watch7=SM-L300|40mm,44mm', 'Galaxy Watch Ultra=SM-L705F|47mm', 'Galaxy Fit3=SM-R390',
  ]],
  ['Huawei', 6, ['Watch GT 3=JPT-B19|42mm,46mm', 'Watch GT 4=PNX-B19|41mm,46mm', 'Watch Fit 3=SLO-B09', 'Band 8=ASK-B19', 'Watch 4 Pro=MDS-AL00|47mm']],
  ['Xiaomi', 6, ['Smart Band 8=M2239B1', 'Smart Band 7=M2129B1', 'Redmi Watch 3=M2216W1', 'Watch S1 Active=M2116W1|46mm', 'Redmi Smart Band 2=M2225B1']],
  ['Amazfit', 5, ['GTR 4=A2166|46mm', 'GTS 4 Mini=A2176', 'Bip 5=A2215', 'T-Rex 2=A2170|47mm', 'Balance=A2287|46mm', 'Active=A2211|42mm']],
  ['Garmin', 4, [
    'Fenix 7=010-02540-01|47mm', 'Forerunner 255=010-02641|46mm', 'Forerunner 265=010-02810|46mm', 'Forerunner 965=010-02809|47mm',
    'Venu 3=010-02784|45mm', 'Venu Sq 2=010-02701|40mm', 'Instinct 2=010-02626|45mm', 'Vivoactive 5=010-02862|42mm',
  ]],
  ['Oraimo', 4, ['Watch 2 Pro=OSW-32', 'Watch ER=OSW-30', 'Tempo W2=OSW-16']],
  ['Fitbit', 2, ['Versa 4=FB523', 'Sense 2=FB521', 'Charge 6=FB425', 'Inspire 3=FB424']],
  ['Haylou', 1, ['Solar Plus RT3=LS16', 'RS4 Plus=LS11']],
  ['Fossil', 0.8, ['Gen 6=FTW4061|44mm', 'Gen 5E=FTW4047|44mm']],
  ['Honor', 0.8, ['Band 7=MUS-B19', 'Watch GS 3=MUS-B19W|46mm']],
  ['Google', 0.6, ['Pixel Watch 2=G4TSL|41mm']],
  ['Mibro', 0.5, ['Watch A1=XPAW005', 'Lite 2=XPAW011']],
  ['Kieslect', 0.2, ['Kr Pro=KR2']],
  ['Zeblaze', 0.2, ['GTR 3 Pro=ZB3P']],
  ['Colmi', 0.3, ['P28 Plus=P28P', 'i30=I30']],
  ['Kospet', 0.1, ['Tank M2=TANKM2']],
  ['Suunto', 0.2, ['9 Peak Pro=SS050807000|47mm', '5 Peak=SS050726000']],
  ['Polar', 0.2, ['Pacer Pro=PACERPRO|45mm', 'Vantage V3=VV3|47mm']],
  ['Coros', 0.2, ['Pace 3=WPACE3|42mm', 'Apex 2 Pro=WAPX2P|46mm']],
  ['Withings', 0.1, ['ScanWatch 2=HWA10|42mm']],
  ['Mobvoi', 0.3, ['TicWatch Pro 5=WH12088', 'TicWatch E3=WH12018']],
  ['Casio', 0.3, ['G-Shock GBD-H2000=GBDH2000', 'G-Shock GBD-200=GBD200']],
  ['OnePlus', 0.2, ['Watch 2=OPWWE231|47mm']],
  ['Realme', 0.3, ['Watch 3 Pro=RMW2108']],
  ['Tecno', 0.5, ['Watch Pro 2=TWP2']],
  ['Noise', 0.1, ['ColorFit Pro 4=WRB-SW-CFP4']],
  ['boAt', 0.1, ['Wave Call=WAVECALL']],
  ['Fire-Boltt', 0.1, ['Phoenix=BSW138']],
  ['itel', 0.4, ['Smartwatch 2ES=ISW-O22']],
  ['Infinix', 0.3, ['XWatch 3=XW3']],
  ['Oppo', 0.2, ['Watch Free=OBB211']],
  ['Montblanc', 0.02, ['Summit 3=MB-SUMMIT3|42mm']],
  ['TAG Heuer', 0.02, ['Connected Calibre E4=SBR8A10|45mm']],
];

const BRAND_LINES: Record<CatalogueCategory, readonly BrandLines[]> = {
  PHONES,
  TABLETS_LAPTOPS: TABLETS,
  LAPTOPS,
  EARBUDS,
  SMARTWATCHES,
};

/** Rare brands written with accents or in capitals, as some importers name their goods. */
const ACCENTED_BRANDS: ReadonlyArray<readonly [brand: string, categories: readonly CatalogueCategory[]]> = [
  ['ÉCLAIR', ['PHONES', 'EARBUDS']],
  ['Élan Mobile', ['PHONES']],
  ['Sönik', ['EARBUDS']],
  ['Kräft', ['LAPTOPS']],
  ['Lúmen', ['TABLETS_LAPTOPS']],
  ['Nová', ['SMARTWATCHES']],
  ['Çelik', ['PHONES']],
  ['Åkerö Audio', ['EARBUDS']],
  ['Señal', ['PHONES', 'SMARTWATCHES']],
  ['Zürich Time', ['SMARTWATCHES']],
  ['Mövé', ['EARBUDS', 'SMARTWATCHES']],
  ['Ñandú', ['TABLETS_LAPTOPS']],
];

/** Syllables the long tail's made-up brand names are built of, as small importers name theirs. */
const NAME_STARTS = ['Zen', 'Vo', 'Tri', 'Lux', 'Nex', 'Or', 'Kai', 'Vel', 'Quan', 'Mir', 'Sol', 'Tek', 'Ion', 'Aru', 'Bel', 'Cor', 'Dex', 'Fyn', 'Gal', 'Hex', 'Jo', 'Kin', 'Lum', 'Mak', 'Nov', 'Omni', 'Pix', 'Ray', 'Sky', 'Tor', 'Ul', 'Vix', 'Wex', 'Xen', 'Yo', 'Zor', 'Ab', 'Bro', 'Cy', 'Dyn'];
const NAME_ENDS = ['tek', 'ro', 'ix', 'on', 'ara', 'io', 'ex', 'um', 'ly', 'va', 'tron', 'mo', 'za', 'ka', 'lo', 'net', 'fone', 'wave', 'gen', 'ia'];
const LONG_TAIL_BRANDS = 190;
const LONG_TAIL_SEED = 0xb2a4d;

const SERIES: Record<CatalogueCategory, readonly string[]> = {
  PHONES: ['Note', 'Spark', 'Max', 'Pro', 'Neo', 'Lite', 'X', 'S', 'A', 'Hot', 'Zoom', 'Power', 'Star'],
  TABLETS_LAPTOPS: ['Pad', 'Tab', 'Slate', 'Kids Tab', 'Pad Pro'],
  LAPTOPS: ['Book', 'Book Pro', 'Air', 'Slim', 'Gamer', 'Ultra'],
  EARBUDS: ['Buds', 'Pods', 'Air', 'Beat', 'Sound', 'TWS'],
  SMARTWATCHES: ['Watch', 'Band', 'Fit', 'Active', 'Sport'],
};

const BUDGET_PROCESSORS = ['Celeron N4020', 'Celeron N5100', 'i3-1115G4', 'i5-1135G7', 'Ryzen 5 5500U', 'i5-8250U'];

/** A processor model, or a part number and the like. */
export function isProcessorModel(code: string): boolean {
  return /^(i\d-|Ryzen |Celeron |Pentium |Core Ultra |Snapdragon |M\d$)/.test(code);
}

/** How much a model's name says it sells above or below its category's typical price. */
function priceFactorOf(brand: string, name: string): number {
  let factor = 1;
  if (/\b(Ultra|Pro Max|Fold|Max|Blade|Alienware|Precision|ROG|Legion|Omen|Predator|Raider|Aorus|Fenix)\b/.test(`${brand} ${name}`)) factor *= 1.9;
  else if (/\b(Pro|Plus|Flip|XPS|Spectre|Carbon|ZBook|Surface|Edge|Classic)\b|\+/.test(name)) factor *= 1.45;
  if (/\b(Lite|Go|Active|FE|mini|SE|Smart|Pop|Neo|Chromebook|Celeron|Band|Fit|Lite)\b/.test(name)) factor *= 0.65;
  const premium: Record<string, number> = { Apple: 1.9, Google: 1.4, Sony: 1.4, Bose: 1.5, Razer: 1.6, Garmin: 1.6, Microsoft: 1.4, Samsung: 1.15 };
  const budget: Record<string, number> = { itel: 0.35, Tecno: 0.55, Infinix: 0.55, Oraimo: 0.45, QCY: 0.35, Haylou: 0.4, Lenovo: 0.9, Nokia: 0.6 };
  return factor * (premium[brand] ?? budget[brand] ?? 0.85);
}

function parseLine(brand: string, category: CatalogueCategory, line: Line): CatalogueModel {
  const [nameAndCodes = '', extra = ''] = line.split('|');
  const [name = '', codeList = ''] = nameAndCodes.split('=');
  const codes = codeList.split(',').filter((code) => code !== '');
  const extras = extra.split(',').filter((value) => value !== '');
  const laptop = category === 'LAPTOPS';
  return {
    brand,
    name,
    codes: laptop ? codes.filter((code) => !isProcessorModel(code)) : codes,
    processors: laptop ? codes.filter(isProcessorModel) : [],
    graphics: laptop ? extras : [],
    fixed: laptop ? [] : extras,
    priceFactor: priceFactorOf(brand, name),
  };
}

function initials(brand: string): string {
  const letters = brand
    .normalize('NFD')
    .replace(/[^A-Za-z]/g, '')
    .toUpperCase();
  return letters.slice(0, 2) || 'XX';
}

/** The models of a rare brand: a series, a number and a code printed like the big brands' (`ZE-K204L`). */
function longTailModels(brand: string, category: CatalogueCategory, random: Random): CatalogueModel[] {
  const count = 2 + Math.floor(random() * 4);
  const models: CatalogueModel[] = [];
  const series = SERIES[category];
  for (let index = 0; index < count; index += 1) {
    const name = `${series[Math.floor(random() * series.length)]} ${random() < 0.5 ? 1 + Math.floor(random() * 20) : 100 + Math.floor(random() * 900)}`;
    const letter = String.fromCharCode(65 + Math.floor(random() * 26));
    const code = `${initials(brand)}-${letter}${100 + Math.floor(random() * 900)}${random() < 0.4 ? String.fromCharCode(65 + Math.floor(random() * 26)) : ''}`;
    const laptop = category === 'LAPTOPS';
    models.push({
      brand,
      name,
      codes: [code],
      processors: laptop ? [BUDGET_PROCESSORS[Math.floor(random() * BUDGET_PROCESSORS.length)]!] : [],
      graphics: [],
      fixed: category === 'TABLETS_LAPTOPS' ? ['Other'] : [],
      priceFactor: 0.4 + random() * 0.6,
    });
  }
  return models;
}

/** Made-up brand names, none a known brand's, some in capitals or written as two capitals joined. */
function longTailNames(random: Random, known: Set<string>): string[] {
  const names: string[] = [];
  while (names.length < LONG_TAIL_BRANDS) {
    const start = NAME_STARTS[Math.floor(random() * NAME_STARTS.length)]!;
    const end = NAME_ENDS[Math.floor(random() * NAME_ENDS.length)]!;
    const style = random();
    const name = style < 0.15 ? `${start}${end}`.toUpperCase() : style < 0.3 ? `${start}${end[0]!.toUpperCase()}${end.slice(1)}` : `${start}${end}`;
    if (known.has(name.toLowerCase())) continue;
    known.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

export interface CategoryBrands {
  /** Picks a brand by its popularity in the category. */
  picker: WeightedPicker<BrandOffer>;
  offers: readonly BrandOffer[];
}

function buildCatalogue(): Record<CatalogueCategory, CategoryBrands> {
  const random = randomSource(LONG_TAIL_SEED);
  const categories = Object.keys(BRAND_LINES) as CatalogueCategory[];
  const weighted: Record<CatalogueCategory, Array<[BrandOffer, number]>> = { PHONES: [], TABLETS_LAPTOPS: [], LAPTOPS: [], EARBUDS: [], SMARTWATCHES: [] };
  const known = new Set<string>();
  for (const category of categories) {
    for (const [brand, weight, lines] of BRAND_LINES[category]) {
      known.add(brand.toLowerCase());
      weighted[category].push([{ brand, models: lines.map((line) => parseLine(brand, category, line)) }, weight]);
    }
  }
  const rare: Array<readonly [string, readonly CatalogueCategory[]]> = [
    ...ACCENTED_BRANDS,
    ...longTailNames(random, known).map((name) => {
      const first = categories[Math.floor(random() * categories.length)]!;
      const second = categories[Math.floor(random() * categories.length)]!;
      return [name, random() < 0.3 ? [first, second] : [first]] as const;
    }),
  ];
  for (const [index, [brand, inCategories]] of rare.entries()) {
    for (const category of new Set(inCategories)) {
      // The rarer the further down the tail: all rare brands together are a few listings in a hundred.
      weighted[category].push([{ brand, models: longTailModels(brand, category, random) }, 0.25 / (1 + index / 8)]);
    }
  }
  const brandsOf = (category: CatalogueCategory): CategoryBrands => {
    const offers = weighted[category].map(([offer]) => offer);
    return { offers, picker: new WeightedPicker(offers, weighted[category].map(([, weight]) => weight)) };
  };
  return {
    PHONES: brandsOf('PHONES'),
    TABLETS_LAPTOPS: brandsOf('TABLETS_LAPTOPS'),
    LAPTOPS: brandsOf('LAPTOPS'),
    EARBUDS: brandsOf('EARBUDS'),
    SMARTWATCHES: brandsOf('SMARTWATCHES'),
  };
}

let catalogue: Record<CatalogueCategory, CategoryBrands> | undefined;

/** Every category's brands and models, built on first use. */
export function catalogueBrands(): Record<CatalogueCategory, CategoryBrands> {
  catalogue ??= buildCatalogue();
  return catalogue;
}

export function isCatalogueCategory(name: string): name is CatalogueCategory {
  return Object.hasOwn(BRAND_LINES, name);
}
