// Static reference data of the seeded world: the category tree, the product blueprints the generator
// varies with the seed (prices, stock, ratings, which variants, promotions, subscriptions, group prices),
// shade palettes and sizes, people and places. Themed on the spec's own examples (an Ayurvedic beauty
// store selling in India) so generated records sit naturally beside the examples' records.

/** Where the store's videos live (the spec's examples use this host); images are the sandbox's own (asset-urls.ts). */
export const CDN = 'https://cdn.kesarinaturals.example';

/** `Matte Lipstick & Co` -> `matte-lipstick-and-co`. */
export function slugify(s: string): string {
  return s
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export interface CategoryDef {
  id: string;
  name: string;
  slug: string;
  description: string;
  parent: string | null;
  hsn: string;
  tax: number;
}

export const CATEGORIES: CategoryDef[] = [
  { id: 'cat_makeup', name: 'Makeup', slug: 'makeup', description: 'Lips, eyes and face makeup.', parent: null, hsn: '33049990', tax: 18 },
  { id: 'cat_lips', name: 'Lips', slug: 'lips', description: 'Lipsticks, tints and lip balms.', parent: 'cat_makeup', hsn: '33041000', tax: 18 },
  { id: 'cat_eyes', name: 'Eyes', slug: 'eyes', description: 'Kajal, liners, mascara and eyeshadow.', parent: 'cat_makeup', hsn: '33042000', tax: 18 },
  { id: 'cat_face', name: 'Face', slug: 'face', description: 'Foundation, compacts, concealers and highlighters.', parent: 'cat_makeup', hsn: '33049110', tax: 18 },
  { id: 'cat_nails', name: 'Nails', slug: 'nails', description: 'Nail colours and care.', parent: 'cat_makeup', hsn: '33043000', tax: 18 },
  { id: 'cat_skincare', name: 'Skincare', slug: 'skincare', description: 'Cleansers, serums, oils and moisturisers.', parent: null, hsn: '33049910', tax: 18 },
  { id: 'cat_cleansers', name: 'Cleansers', slug: 'cleansers', description: 'Face washes, ubtans and scrubs.', parent: 'cat_skincare', hsn: '33049910', tax: 18 },
  { id: 'cat_serums', name: 'Serums & Face Oils', slug: 'serums-and-face-oils', description: 'Concentrated serums and Ayurvedic face oils.', parent: 'cat_skincare', hsn: '33049910', tax: 18 },
  { id: 'cat_moisturisers', name: 'Moisturisers', slug: 'moisturisers', description: 'Day creams, night gels and butters.', parent: 'cat_skincare', hsn: '33049910', tax: 18 },
  { id: 'cat_sun_care', name: 'Sun Care', slug: 'sun-care', description: 'Sunscreens for Indian summers.', parent: 'cat_skincare', hsn: '33049910', tax: 18 },
  { id: 'cat_haircare', name: 'Hair Care', slug: 'hair-care', description: 'Oils, shampoos, conditioners and masks.', parent: null, hsn: '33059011', tax: 18 },
  { id: 'cat_hair_oils', name: 'Hair Oils', slug: 'hair-oils', description: 'Herbal hair oils and tonics.', parent: 'cat_haircare', hsn: '33059011', tax: 18 },
  { id: 'cat_shampoos', name: 'Shampoos & Conditioners', slug: 'shampoos-and-conditioners', description: 'Gentle herbal cleansers for hair.', parent: 'cat_haircare', hsn: '33051090', tax: 18 },
  { id: 'cat_bath_body', name: 'Bath & Body', slug: 'bath-and-body', description: 'Soaps, body washes, lotions and bath salts.', parent: null, hsn: '34011190', tax: 18 },
  { id: 'cat_fragrance', name: 'Fragrance', slug: 'fragrance', description: 'Attars, perfumes and body mists.', parent: null, hsn: '33030090', tax: 18 },
  { id: 'cat_wellness', name: 'Wellness', slug: 'wellness', description: 'Herbal teas and Ayurvedic supplements.', parent: null, hsn: '21069099', tax: 12 },
  { id: 'cat_gifts', name: 'Gift Sets', slug: 'gift-sets', description: 'Curated sets for festivals and weddings.', parent: null, hsn: '33079090', tax: 18 },
];

/** How a product varies: by shade (colour option), by size, one named variant, none (one implicit "Standard"), no variant at all, or a bundle. */
export type Kind = 'shades' | 'sizes' | 'one' | 'none' | 'empty' | 'bundle';

export interface Blueprint {
  name: string;
  category: string;
  /** Price before tax of the smallest variant, in rupees (the generator moves it by up to ±20%). */
  price: number;
  kind: Kind;
  /** Shade palette or size ladder (see SHADES, SIZES). */
  options?: string;
  short: string;
  tags: string[];
  /** Consumables a shopper may subscribe to. */
  refill?: boolean;
  product_type?: string;
}

export const BLUEPRINTS: Blueprint[] = [
  { name: 'Matte Lipstick', category: 'cat_lips', price: 500, kind: 'shades', options: 'lipstick', short: 'Long-wear matte lipstick with kokum butter, 4.2 g.', tags: ['matte', 'long-wear'] },
  { name: 'Tinted Lip Balm', category: 'cat_lips', price: 220, kind: 'shades', options: 'tint', short: 'Beetroot-tinted lip balm with ghee and shea, 4.5 g.', tags: ['tint', 'moisturising'] },
  { name: 'Liquid Lip Colour', category: 'cat_lips', price: 450, kind: 'shades', options: 'lipstick', short: 'Transfer-proof liquid lip colour, 6 ml.', tags: ['liquid', 'transfer-proof'] },
  { name: 'Lip Scrub', category: 'cat_lips', price: 260, kind: 'one', options: 'tiny', short: 'Sugar and honey lip scrub, 8 g.', tags: ['scrub'] },
  { name: 'Lip Liner', category: 'cat_lips', price: 240, kind: 'shades', options: 'lipstick', short: 'Creamy twist-up lip liner, 0.35 g.', tags: ['liner'] },
  { name: 'Kajal Eyeliner', category: 'cat_eyes', price: 250, kind: 'shades', options: 'kajal', short: 'Smudge-proof twist-up kajal with almond oil, 0.35 g.', tags: ['kajal', 'smudge-proof'] },
  { name: 'Volumising Mascara', category: 'cat_eyes', price: 420, kind: 'shades', options: 'kajal', short: 'Castor-oil mascara for fuller lashes, 8 ml.', tags: ['mascara'] },
  { name: 'Eyeshadow Palette', category: 'cat_eyes', price: 900, kind: 'none', short: 'Nine earthy shades, matte and shimmer, 9 g.', tags: ['palette', 'shimmer'] },
  { name: 'Brow Pencil', category: 'cat_eyes', price: 280, kind: 'shades', options: 'kajal', short: 'Fine brow pencil with spoolie.', tags: ['brows'] },
  { name: 'Liquid Eyeliner', category: 'cat_eyes', price: 350, kind: 'one', options: 'tiny', short: 'Felt-tip liquid liner, jet black, 1 ml.', tags: ['liner', 'waterproof'] },
  { name: 'Compact Powder', category: 'cat_face', price: 480, kind: 'shades', options: 'skin', short: 'Talc-free mattifying compact, 9 g.', tags: ['compact', 'matte'] },
  { name: 'Serum Foundation', category: 'cat_face', price: 850, kind: 'shades', options: 'skin', short: 'Light-coverage foundation with saffron serum, 30 ml.', tags: ['foundation'] },
  { name: 'Concealer Stick', category: 'cat_face', price: 520, kind: 'shades', options: 'skin', short: 'Creamy concealer for dark circles, 4 g.', tags: ['concealer'] },
  { name: 'Highlighter', category: 'cat_face', price: 600, kind: 'none', short: 'Pearl highlighter, golden glow, 8 g.', tags: ['glow'] },
  { name: 'BB Cream', category: 'cat_face', price: 560, kind: 'shades', options: 'skin', short: 'Tinted moisturiser with SPF 20, 30 g.', tags: ['bb', 'spf'] },
  { name: 'Nail Enamel', category: 'cat_nails', price: 180, kind: 'shades', options: 'nail', short: '7-free nail colour, 9 ml.', tags: ['nails'] },
  { name: 'Nail Polish Remover', category: 'cat_nails', price: 150, kind: 'sizes', options: 'liquid', short: 'Acetone-free remover with aloe.', tags: ['remover'] },
  { name: 'Cuticle Oil', category: 'cat_nails', price: 220, kind: 'one', options: 'tiny', short: 'Almond and vitamin E cuticle oil, 10 ml.', tags: ['nail-care'] },
  { name: 'Neem Face Wash', category: 'cat_cleansers', price: 200, kind: 'sizes', options: 'liquid', short: 'Neem and tulsi gel face wash for oily skin.', tags: ['neem', 'oily-skin'], refill: true },
  { name: 'Ubtan Cleanser', category: 'cat_cleansers', price: 320, kind: 'sizes', options: 'cream', short: 'Turmeric and gram-flour cleansing paste.', tags: ['ubtan', 'turmeric'] },
  { name: 'Micellar Rose Water', category: 'cat_cleansers', price: 260, kind: 'sizes', options: 'liquid', short: 'Steam-distilled rose water that lifts make-up.', tags: ['rose', 'toner'], refill: true },
  { name: 'Charcoal Scrub', category: 'cat_cleansers', price: 280, kind: 'one', options: 'cream', short: 'Activated-charcoal face scrub, 100 g.', tags: ['scrub', 'charcoal'] },
  { name: 'Kumkumadi Face Oil', category: 'cat_serums', price: 1000, kind: 'sizes', options: 'dropper', short: 'Saffron and 16-herb Ayurvedic night oil for radiant skin.', tags: ['ayurveda', 'saffron', 'night-care'], refill: true },
  { name: 'Vitamin C Serum', category: 'cat_serums', price: 750, kind: 'sizes', options: 'dropper', short: 'Amla vitamin C brightening serum.', tags: ['vitamin-c', 'brightening'], refill: true },
  { name: 'Niacinamide Serum', category: 'cat_serums', price: 650, kind: 'one', options: 'dropper', short: '10% niacinamide with licorice, 30 ml.', tags: ['niacinamide'] },
  { name: 'Under-Eye Gel', category: 'cat_serums', price: 480, kind: 'one', options: 'tiny', short: 'Cucumber and caffeine under-eye gel, 15 g.', tags: ['under-eye'] },
  { name: 'Saffron Day Cream', category: 'cat_moisturisers', price: 700, kind: 'sizes', options: 'cream', short: 'Brightening day cream with saffron and SPF 15.', tags: ['saffron', 'day-cream'] },
  { name: 'Aloe Night Gel', category: 'cat_moisturisers', price: 380, kind: 'sizes', options: 'cream', short: 'Cooling aloe vera night gel.', tags: ['aloe', 'night-care'], refill: true },
  { name: 'Shea Body Butter', category: 'cat_moisturisers', price: 540, kind: 'sizes', options: 'cream', short: 'Rich whipped shea and cocoa butter.', tags: ['body-butter'] },
  { name: 'Sunscreen SPF 50', category: 'cat_sun_care', price: 450, kind: 'sizes', options: 'cream', short: 'Broad-spectrum SPF 50 PA+++ gel sunscreen.', tags: ['spf', 'summer'], refill: true },
  { name: 'Sun Stick SPF 40', category: 'cat_sun_care', price: 420, kind: 'one', options: 'tiny', short: 'Invisible sunscreen stick for touch-ups, 15 g.', tags: ['spf', 'travel'] },
  { name: 'Bhringraj Hair Oil', category: 'cat_hair_oils', price: 350, kind: 'sizes', options: 'liquid', short: 'Bhringraj and amla oil against hair fall.', tags: ['bhringraj', 'hair-fall'], refill: true },
  { name: 'Onion Hair Oil', category: 'cat_hair_oils', price: 330, kind: 'sizes', options: 'liquid', short: 'Red onion and black seed hair oil.', tags: ['onion', 'growth'], refill: true },
  { name: 'Coconut Hibiscus Oil', category: 'cat_hair_oils', price: 280, kind: 'sizes', options: 'liquid', short: 'Cold-pressed coconut oil infused with hibiscus.', tags: ['coconut', 'hibiscus'], refill: true },
  { name: 'Amla Hair Tonic', category: 'cat_hair_oils', price: 300, kind: 'one', options: 'dropper', short: 'Leave-in amla scalp tonic, 100 ml.', tags: ['amla', 'scalp'] },
  { name: 'Reetha Shampoo', category: 'cat_shampoos', price: 320, kind: 'sizes', options: 'liquid', short: 'Sulphate-free reetha and shikakai shampoo.', tags: ['sulphate-free'], refill: true },
  { name: 'Shikakai Conditioner', category: 'cat_shampoos', price: 340, kind: 'sizes', options: 'liquid', short: 'Detangling conditioner with shikakai and aloe.', tags: ['conditioner'], refill: true },
  { name: 'Anti-Dandruff Shampoo', category: 'cat_shampoos', price: 360, kind: 'sizes', options: 'liquid', short: 'Neem and tea-tree anti-dandruff shampoo.', tags: ['dandruff', 'neem'] },
  { name: 'Hair Mask', category: 'cat_shampoos', price: 450, kind: 'one', options: 'cream', short: 'Deep-conditioning hibiscus hair mask, 200 g.', tags: ['mask', 'repair'] },
  { name: 'Sandalwood Soap', category: 'cat_bath_body', price: 90, kind: 'sizes', options: 'soap', short: 'Mysore sandalwood bathing bar.', tags: ['sandalwood', 'soap'] },
  { name: 'Turmeric Soap', category: 'cat_bath_body', price: 80, kind: 'sizes', options: 'soap', short: 'Turmeric and saffron bathing bar.', tags: ['turmeric', 'soap'] },
  { name: 'Rose Body Wash', category: 'cat_bath_body', price: 300, kind: 'sizes', options: 'liquid', short: 'Rose and glycerine body wash.', tags: ['rose', 'body-wash'], refill: true },
  { name: 'Body Lotion', category: 'cat_bath_body', price: 340, kind: 'sizes', options: 'liquid', short: 'Non-greasy cocoa and kokum body lotion.', tags: ['lotion'] },
  { name: 'Himalayan Bath Salts', category: 'cat_bath_body', price: 260, kind: 'none', short: 'Pink salt and eucalyptus bath soak, 400 g.', tags: ['bath-salts', 'relax'] },
  { name: 'Attar Roll-on', category: 'cat_fragrance', price: 600, kind: 'shades', options: 'attar', short: 'Alcohol-free attar roll-on, 8 ml.', tags: ['attar', 'alcohol-free'] },
  { name: 'Jasmine Eau de Parfum', category: 'cat_fragrance', price: 1400, kind: 'sizes', options: 'perfume', short: 'Mogra jasmine eau de parfum.', tags: ['jasmine', 'perfume'] },
  { name: 'Vetiver Body Mist', category: 'cat_fragrance', price: 450, kind: 'one', options: 'liquid', short: 'Cooling khus vetiver body mist, 150 ml.', tags: ['vetiver', 'mist'] },
  { name: 'Tulsi Green Tea', category: 'cat_wellness', price: 250, kind: 'sizes', options: 'tea', short: 'Tulsi and green tea, 25 bags per box.', tags: ['tea', 'tulsi'], refill: true },
  { name: 'Ashwagandha Capsules', category: 'cat_wellness', price: 450, kind: 'sizes', options: 'capsules', short: 'KSM-66 ashwagandha root extract capsules.', tags: ['ashwagandha', 'stress'], refill: true },
  { name: 'Chyawanprash', category: 'cat_wellness', price: 380, kind: 'sizes', options: 'jar', short: 'Sugar-free chyawanprash with 40 herbs.', tags: ['immunity'], refill: true },
  { name: 'Triphala Tablets', category: 'cat_wellness', price: 220, kind: 'one', options: 'capsules', short: 'Triphala digestive tablets, 60 per bottle.', tags: ['digestion'], refill: true },
  { name: 'Festive Glow Gift Set', category: 'cat_gifts', price: 1500, kind: 'bundle', short: 'Matte Lipstick Ruby Red and Kumkumadi Face Oil 30 ml in a gift box.', tags: ['gift', 'diwali'] },
  { name: 'Bridal Essentials Kit', category: 'cat_gifts', price: 2800, kind: 'bundle', short: 'Lip, eye and face essentials for the big day.', tags: ['gift', 'wedding'] },
  { name: 'Hair Care Trio', category: 'cat_gifts', price: 850, kind: 'bundle', short: 'Oil, shampoo and conditioner in a jute pouch.', tags: ['gift', 'hair'] },
  { name: 'Skincare Starter Kit', category: 'cat_gifts', price: 1200, kind: 'bundle', short: 'Cleanser, serum and moisturiser to begin a routine.', tags: ['gift', 'starter'] },
  { name: 'Mini Lipstick Set', category: 'cat_gifts', price: 950, kind: 'bundle', short: 'Three mini lipsticks in best-selling shades.', tags: ['gift', 'minis'] },
  { name: 'E-Gift Card', category: 'cat_gifts', price: 1000, kind: 'empty', short: 'A digital gift card sent by e-mail; the amount is chosen at checkout.', tags: ['gift', 'digital'], product_type: 'digital' },
  { name: 'Skin Consultation', category: 'cat_wellness', price: 500, kind: 'empty', short: 'A 30-minute online consultation with an Ayurvedic skin expert.', tags: ['consultation'], product_type: 'service' },
];

export interface Shade {
  name: string;
  hexcode: string;
}

export const SHADES: Record<string, Shade[]> = {
  lipstick: [
    { name: 'Ruby Red', hexcode: '#9B111E' },
    { name: 'Nude Rose', hexcode: '#C48B7F' },
    { name: 'Berry Wine', hexcode: '#7B1E3A' },
    { name: 'Coral Crush', hexcode: '#F88379' },
    { name: 'Mauve Muse', hexcode: '#915F6D' },
    { name: 'Brick Brown', hexcode: '#8B3A2B' },
  ],
  tint: [
    { name: 'Beetroot', hexcode: '#8E2043' },
    { name: 'Peach', hexcode: '#FFB07C' },
    { name: 'Cherry', hexcode: '#B3173A' },
  ],
  kajal: [
    { name: 'Jet Black', hexcode: '#0A0A0A' },
    { name: 'Deep Brown', hexcode: '#3B2314' },
    { name: 'Navy Blue', hexcode: '#1F305E' },
  ],
  skin: [
    { name: 'Ivory', hexcode: '#F3E5D0' },
    { name: 'Beige', hexcode: '#E3C9A8' },
    { name: 'Sand', hexcode: '#D2B48C' },
    { name: 'Honey', hexcode: '#C68E5A' },
    { name: 'Caramel', hexcode: '#A96C3F' },
    { name: 'Mocha', hexcode: '#6F4E37' },
  ],
  nail: [
    { name: 'Cherry', hexcode: '#990F02' },
    { name: 'Peach', hexcode: '#FFCBA4' },
    { name: 'Lilac', hexcode: '#C8A2C8' },
    { name: 'Teal', hexcode: '#008080' },
    { name: 'Gold Dust', hexcode: '#D4AF37' },
  ],
  attar: [
    { name: 'Rose', hexcode: '#E8A0B4' },
    { name: 'Oudh', hexcode: '#5C4033' },
    { name: 'Mogra', hexcode: '#F5F5DC' },
  ],
};

/** Size ladders: the label and the price factor of each step. */
export const SIZES: Record<string, Array<[string, number]>> = {
  liquid: [['100 ml', 1], ['200 ml', 1.8], ['500 ml', 4]],
  dropper: [['15 ml', 0.6], ['30 ml', 1], ['50 ml', 1.5]],
  cream: [['50 g', 1], ['100 g', 1.8], ['200 g', 3.2]],
  soap: [['1 bar', 1], ['Pack of 3', 2.7], ['Pack of 6', 5]],
  perfume: [['30 ml', 1], ['50 ml', 1.5], ['100 ml', 2.5]],
  tea: [['25 bags', 1], ['50 bags', 1.9], ['100 bags', 3.5]],
  capsules: [['60 capsules', 1], ['120 capsules', 1.8]],
  jar: [['500 g', 1], ['1 kg', 1.8]],
  tiny: [['Standard', 1]],
};

/** Finish attribute (the contract's attributes carry colour values) for makeup. */
export const FINISHES: Shade[] = [
  { name: 'Matte', hexcode: '#B71C1C' },
  { name: 'Satin', hexcode: '#C2185B' },
  { name: 'Glossy', hexcode: '#E91E63' },
  { name: 'Shimmer', hexcode: '#D4AF37' },
];

export const BRANDS = [
  { code: 'KN', name: 'Kesari Naturals', manufacturer: 'Kesari Naturals Pvt Ltd, Baddi', seller: null },
  { code: 'NY', name: 'Nayantara', manufacturer: 'Nayantara Cosmetics Pvt Ltd, Daman', seller: 'slr_NYT01' },
] as const;

export const SELLER_NYT01 = {
  id: 'slr_NYT01',
  trade_name: 'Nayantara Cosmetics',
  legal_name: 'Nayantara Cosmetics Private Limited',
  business_type: 'private_limited',
  tax_identification_number: '27AAGCN5521K1Z8',
};

export const FIRST_NAMES = ['Aarav', 'Ananya', 'Rohan', 'Ishita', 'Vikram', 'Meera', 'Kabir', 'Sneha', 'Arjun', 'Diya', 'Nikhil', 'Kavya', 'Farhan', 'Lakshmi', 'Tenzin', 'Gurpreet'];
export const LAST_NAMES = ['Iyer', 'Reddy', 'Nair', 'Mehta', 'Das', 'Khan', 'Patel', 'Singh', 'Menon', 'Bose', 'Kulkarni', 'Joshi', 'Gill', 'Fernandes'];
export const BUSINESSES = [
  { type: 'retailer', suffix: 'Beauty Store' },
  { type: 'salon', suffix: 'Salon' },
  { type: 'spa', suffix: 'Wellness Spa' },
  { type: 'proprietorship', suffix: 'Cosmetics' },
  { type: 'wholesaler', suffix: 'Traders' },
  { type: 'partnership', suffix: 'Beauty Studio' },
];

/** Cities with a GST state code, a sample street and the first digits of their pincodes. */
export const CITIES = [
  { city: 'Bengaluru', state: 'Karnataka', gst: '29', pin: '5600', street: 'HAL 2nd Stage' },
  { city: 'Mumbai', state: 'Maharashtra', gst: '27', pin: '4000', street: 'Linking Road' },
  { city: 'New Delhi', state: 'Delhi', gst: '07', pin: '1100', street: 'Connaught Place' },
  { city: 'Chennai', state: 'Tamil Nadu', gst: '33', pin: '6000', street: 'T. Nagar' },
  { city: 'Hyderabad', state: 'Telangana', gst: '36', pin: '5000', street: 'Banjara Hills' },
  { city: 'Pune', state: 'Maharashtra', gst: '27', pin: '4110', street: 'FC Road' },
  { city: 'Kolkata', state: 'West Bengal', gst: '19', pin: '7000', street: 'Park Street' },
  { city: 'Jaipur', state: 'Rajasthan', gst: '08', pin: '3020', street: 'MI Road' },
];

export const COUNTRIES: Array<[string, string, string, string, string, string, string, string]> = [
  // iso, name, dial code, currency code, symbol, currency name, alias, continent
  ['IN', 'India', '+91', 'INR', '₹', 'Indian Rupee', 'Bharat', 'Asia'],
  ['AE', 'United Arab Emirates', '+971', 'AED', 'د.إ', 'UAE Dirham', 'UAE', 'Asia'],
  ['SG', 'Singapore', '+65', 'SGD', 'S$', 'Singapore Dollar', 'Republic of Singapore', 'Asia'],
  ['NP', 'Nepal', '+977', 'NPR', 'रू', 'Nepalese Rupee', 'Federal Democratic Republic of Nepal', 'Asia'],
  ['LK', 'Sri Lanka', '+94', 'LKR', 'Rs', 'Sri Lankan Rupee', 'Lanka', 'Asia'],
  ['BD', 'Bangladesh', '+880', 'BDT', '৳', 'Bangladeshi Taka', "People's Republic of Bangladesh", 'Asia'],
  ['MY', 'Malaysia', '+60', 'MYR', 'RM', 'Malaysian Ringgit', 'Malaysia', 'Asia'],
  ['GB', 'United Kingdom', '+44', 'GBP', '£', 'Pound Sterling', 'UK', 'Europe'],
  ['US', 'United States', '+1', 'USD', '$', 'US Dollar', 'USA', 'North America'],
  ['CA', 'Canada', '+1', 'CAD', 'C$', 'Canadian Dollar', 'Canada', 'North America'],
  ['AU', 'Australia', '+61', 'AUD', 'A$', 'Australian Dollar', 'Commonwealth of Australia', 'Oceania'],
];

/** Order statuses of the seeded orders (the seed shows `draft`; the others are the sandbox's). */
export const ORDER_FLOW = ['draft', 'confirmed', 'processing', 'shipped', 'delivered'] as const;
export const ORDER_STATUSES = [...ORDER_FLOW, 'cancelled', 'returned'] as const;
