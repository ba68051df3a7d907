import type { SchemaRule } from '../db/schema.js';

export interface CategoryDefinition {
  name: string;
  displayName: string;
  icon: string;
  schemaRules: SchemaRule[];
}

const CONDITIONS = ['Brand New', 'Used - Like New', 'Used - Good', 'Used - Fair'];

const IDENTITY_RULES: SchemaRule[] = [
  { field: 'brand', type: 'string', required: true },
  { field: 'model', type: 'string', required: true },
];

/** Every default category ends with these, after its own fields. */
const COMMON_TAIL_RULES: SchemaRule[] = [
  { field: 'condition', type: 'select', required: false, options: CONDITIONS },
  { field: 'color', type: 'string', required: false },
  { field: 'hasWarranty', type: 'boolean', required: false },
];

function rules(...specific: SchemaRule[]): SchemaRule[] {
  return [...IDENTITY_RULES, ...specific, ...COMMON_TAIL_RULES];
}

const LAPTOP_PROCESSORS = [
  'Intel Core i3',
  'Intel Core i5',
  'Intel Core i7',
  'Intel Core i9',
  'Intel Core Ultra 5',
  'Intel Core Ultra 7',
  'Intel Core Ultra 9',
  'AMD Ryzen 3',
  'AMD Ryzen 5',
  'AMD Ryzen 7',
  'AMD Ryzen 9',
  'Apple M1',
  'Apple M2',
  'Apple M3',
  'Apple M4',
  'Qualcomm Snapdragon X',
  'Other',
];

const TABLET_PROCESSORS = [
  'Apple A14 Bionic',
  'Apple A15 Bionic',
  'Apple A16 Bionic',
  'Apple A17 Pro',
  'Apple M1',
  'Apple M2',
  'Apple M4',
  'Qualcomm Snapdragon',
  'MediaTek',
  'Intel Core i3',
  'Intel Core i5',
  'Intel Core i7',
  'AMD Ryzen 5',
  'AMD Ryzen 7',
  'Other',
];

/** The five default categories, with their display names, icons and rules, in a fixed order. */
export const DEFAULT_CATEGORIES: readonly CategoryDefinition[] = [
  {
    name: 'PHONES',
    displayName: 'Phones',
    icon: 'smartphone',
    schemaRules: rules(
      { field: 'storage', type: 'select', required: true, options: ['64GB', '128GB', '256GB', '512GB', '1TB'] },
      { field: 'ram', type: 'select', required: false, options: ['4GB', '6GB', '8GB', '12GB', '16GB'] },
      { field: 'batteryHealth', type: 'string', required: false },
      { field: 'carrier', type: 'select', required: false, options: ['Unlocked', 'AT&T', 'Verizon', 'T-Mobile', 'Vodafone', 'Other'] },
    ),
  },
  {
    name: 'TABLETS_LAPTOPS',
    displayName: 'Tablets / Laptops',
    icon: 'tablet',
    schemaRules: rules(
      { field: 'storage', type: 'select', required: false, options: ['64GB', '128GB', '256GB', '512GB', '1TB', '2TB'] },
      { field: 'ram', type: 'select', required: false, options: ['4GB', '6GB', '8GB', '12GB', '16GB', '32GB'] },
      { field: 'processor', type: 'select', required: false, options: TABLET_PROCESSORS },
      { field: 'screenSize', type: 'select', required: false, options: ['8"', '10"', '11"', '12"', '13"', '14"', '15"', '16"'] },
    ),
  },
  {
    name: 'LAPTOPS',
    displayName: 'Laptops',
    icon: 'laptop',
    schemaRules: rules(
      { field: 'storage', type: 'select', required: false, options: ['256GB', '512GB', '1TB', '2TB'] },
      { field: 'ram', type: 'select', required: false, options: ['8GB', '16GB', '32GB', '64GB'] },
      { field: 'processor', type: 'select', required: false, options: LAPTOP_PROCESSORS },
      { field: 'screenSize', type: 'select', required: false, options: ['13"', '14"', '15"', '15.6"', '16"', '17"'] },
      { field: 'gpu', type: 'string', required: false },
      { field: 'os', type: 'select', required: false, options: ['Windows 11', 'macOS', 'Linux', 'ChromeOS'] },
    ),
  },
  {
    name: 'EARBUDS',
    displayName: 'Earbuds',
    icon: 'headphones',
    schemaRules: rules({ field: 'noiseCancelling', type: 'boolean', required: false }),
  },
  {
    name: 'SMARTWATCHES',
    displayName: 'Smartwatches',
    icon: 'watch',
    schemaRules: rules(
      { field: 'caseSize', type: 'select', required: false, options: ['38mm', '40mm', '41mm', '42mm', '44mm', '45mm', '46mm', '47mm', '49mm'] },
      { field: 'connectivity', type: 'select', required: false, options: ['GPS', 'GPS + Cellular'] },
    ),
  },
];
