// The fixed material the demo portfolio is built from: three markets with their own seasons, prices and
// vocabulary, and the names and texts guests and hosts write. Everything here is invented; addresses use real
// street names but made-up house numbers, phone numbers use ranges reserved for fiction, e-mail addresses use
// example domains.

/** How a market's demand moves through the year. */
export type CityStyle = 'beach' | 'ski' | 'city';

/** A price season, written as a pricing rule over a date range (month 1–12); may cross the new year. */
export interface DemoSeason {
  readonly name: string;
  readonly from: readonly [month: number, day: number];
  readonly to: readonly [month: number, day: number];
  readonly percent: number;
}

/** A local event or holiday: a per-date price override (percent over base) and minimum stay. */
export interface DemoEvent {
  readonly name: string;
  readonly month: number;
  readonly day: number;
  readonly nights: number;
  readonly percent: number;
  readonly minNights: number | null;
}

/** One market of the demo portfolio. */
export interface DemoCity {
  /** Short code for listing nicknames (GS-004). */
  readonly code: string;
  readonly city: string;
  readonly region: string;
  readonly countryCode: string;
  readonly postalCodes: readonly string[];
  readonly timeZone: string;
  readonly currency: 'USD' | 'EUR';
  readonly latitude: number;
  readonly longitude: number;
  readonly style: CityStyle;
  /** Share of the demo's listings in this market. */
  readonly share: number;
  /** Base occupancy by month, January first: the demand curve. */
  readonly demand: readonly number[];
  readonly bedrooms: readonly (readonly [number, number])[];
  readonly propertyTypes: readonly (readonly [string, number])[];
  /** Nightly base price in major units: `basePrice + perBedroom × max(bedrooms, 1)`. */
  readonly basePrice: number;
  readonly perBedroom: number;
  readonly cleaningFee: number;
  readonly cleaningPerBedroom: number;
  readonly extraGuestFee: number;
  readonly taxRateBp: number;
  readonly checkInTime: number;
  readonly checkOutTime: number;
  readonly minNights: readonly (readonly [number, number])[];
  /** Stay lengths in nights with weights. */
  readonly stayLengths: readonly (readonly [number, number])[];
  /** Median days between booking and check-in. */
  readonly leadMedianDays: number;
  readonly seasons: readonly DemoSeason[];
  readonly events: readonly DemoEvent[];
  readonly lockProviders: readonly string[];
  readonly streets: readonly string[];
  readonly nameFirst: readonly string[];
  /** What a listing name calls the place, by property type. */
  readonly nameKinds: Readonly<Record<string, readonly string[]>>;
  readonly nameFeatures: readonly string[];
  /** Things guests mention in reviews of this market. */
  readonly highlights: readonly string[];
}

const newYear: DemoEvent = {
  name: "New Year's Eve",
  month: 12,
  day: 30,
  nights: 3,
  percent: 60,
  minNights: 3,
};

/** The three markets; the first one's time zone is the demo account's. */
export const demoCities: readonly DemoCity[] = [
  {
    code: 'GS',
    city: 'Gulf Shores',
    region: 'AL',
    countryCode: 'US',
    postalCodes: ['36542'],
    timeZone: 'America/Chicago',
    currency: 'USD',
    latitude: 30.246,
    longitude: -87.7008,
    style: 'beach',
    share: 0.38,
    demand: [0.25, 0.3, 0.5, 0.55, 0.62, 0.82, 0.86, 0.7, 0.48, 0.45, 0.28, 0.26],
    bedrooms: [
      [1, 20],
      [2, 30],
      [3, 28],
      [4, 15],
      [5, 7],
    ],
    propertyTypes: [
      ['condo', 55],
      ['house', 35],
      ['townhouse', 10],
    ],
    basePrice: 105,
    perBedroom: 55,
    cleaningFee: 95,
    cleaningPerBedroom: 35,
    extraGuestFee: 15,
    taxRateBp: 1300,
    checkInTime: 16,
    checkOutTime: 10,
    minNights: [
      [2, 65],
      [3, 35],
    ],
    stayLengths: [
      [2, 10],
      [3, 18],
      [4, 17],
      [5, 13],
      [6, 8],
      [7, 20],
      [8, 3],
      [10, 3],
      [14, 4],
      [21, 1],
      [30, 1],
    ],
    leadMedianDays: 55,
    seasons: [
      { name: 'Spring break', from: [3, 1], to: [4, 20], percent: 12 },
      { name: 'Summer peak', from: [6, 1], to: [8, 15], percent: 30 },
      { name: 'Winter low season', from: [11, 1], to: [2, 28], percent: -20 },
    ],
    events: [
      { name: 'Hangout Music Festival', month: 5, day: 15, nights: 3, percent: 80, minNights: 3 },
      { name: 'Fourth of July', month: 7, day: 3, nights: 3, percent: 40, minNights: 3 },
      { name: 'Labor Day weekend', month: 8, day: 30, nights: 3, percent: 25, minNights: null },
      newYear,
    ],
    lockProviders: ['Schlage', 'Yale', 'August'],
    streets: [
      'West Beach Boulevard',
      'East Beach Boulevard',
      'Fort Morgan Road',
      'Gulf Shores Parkway',
      'West 2nd Street',
      'Sea Oats Drive',
      'Dune Drive',
      'Bayou Village Drive',
      'Plantation Road',
      'West Lagoon Avenue',
    ],
    nameFirst: [
      'Pelican Point',
      'Sandpiper',
      'Salt Air',
      'Seagrass',
      'Driftwood',
      'Tidewater',
      'Gulf Breeze',
      'Sea Oats',
      'Dolphin Cove',
      'Coral Sands',
      'Sunset Dunes',
      'Blue Heron',
    ],
    nameKinds: {
      condo: ['Condo', 'Beach Condo'],
      house: ['Beach House', 'Cottage', 'Villa', 'Bungalow'],
      townhouse: ['Townhome', 'Retreat'],
    },
    nameFeatures: [
      'Gulf View',
      'Private Pool',
      'Steps to the Beach',
      'Beachfront Balcony',
      'Walk to the Hangout',
      'Pet Friendly',
      'Lagoon Dock',
    ],
    highlights: [
      'the balcony view',
      'the beach access',
      'the pool',
      'the sunsets',
      'the kitchen',
      'the beds',
    ],
  },
  {
    code: 'BR',
    city: 'Breckenridge',
    region: 'CO',
    countryCode: 'US',
    postalCodes: ['80424'],
    timeZone: 'America/Denver',
    currency: 'USD',
    latitude: 39.4817,
    longitude: -106.0384,
    style: 'ski',
    share: 0.27,
    demand: [0.78, 0.82, 0.8, 0.4, 0.14, 0.42, 0.6, 0.52, 0.38, 0.22, 0.26, 0.72],
    bedrooms: [
      [0, 5],
      [1, 20],
      [2, 30],
      [3, 25],
      [4, 15],
      [5, 5],
    ],
    propertyTypes: [
      ['condo', 45],
      ['townhouse', 25],
      ['house', 20],
      ['cabin', 10],
    ],
    basePrice: 135,
    perBedroom: 75,
    cleaningFee: 120,
    cleaningPerBedroom: 40,
    extraGuestFee: 20,
    taxRateBp: 1190,
    checkInTime: 16,
    checkOutTime: 10,
    minNights: [
      [2, 40],
      [3, 50],
      [4, 10],
    ],
    stayLengths: [
      [2, 6],
      [3, 16],
      [4, 20],
      [5, 18],
      [6, 12],
      [7, 18],
      [8, 4],
      [10, 3],
      [14, 2],
      [28, 1],
    ],
    leadMedianDays: 70,
    seasons: [
      { name: 'Ski peak', from: [12, 15], to: [3, 31], percent: 35 },
      { name: 'Mud season', from: [4, 15], to: [5, 31], percent: -30 },
      { name: 'Summer in the mountains', from: [6, 15], to: [8, 31], percent: 5 },
      { name: 'Fall low season', from: [10, 1], to: [11, 20], percent: -20 },
    ],
    events: [
      { name: 'Ullr Fest', month: 1, day: 8, nights: 4, percent: 25, minNights: null },
      { name: "Presidents' Day weekend", month: 2, day: 14, nights: 3, percent: 30, minNights: 3 },
      { name: 'Christmas week', month: 12, day: 22, nights: 7, percent: 50, minNights: 5 },
      newYear,
    ],
    lockProviders: ['Schlage', 'Yale'],
    streets: [
      'Main Street',
      'Ski Hill Road',
      'Park Avenue',
      'French Street',
      "Four O'Clock Road",
      'Columbine Road',
      'Broken Lance Drive',
      'Gold Flake Terrace',
      'Peak 7 Road',
      'Wellington Road',
    ],
    nameFirst: [
      'Timberline',
      'Summit',
      'Powder Day',
      'Aspen Grove',
      'Alpenglow',
      'Gold Run',
      'Blue River',
      'Quandary',
      'Snowflake',
      'Peak 9',
      'Boreas',
      'Wildernest',
    ],
    nameKinds: {
      condo: ['Condo', 'Ski Condo'],
      townhouse: ['Townhome', 'Retreat'],
      house: ['Chalet', 'Lodge', 'Mountain Home'],
      cabin: ['Cabin', 'Log Cabin'],
    },
    nameFeatures: [
      'Ski-in/Ski-out',
      'Private Hot Tub',
      'Walk to Main Street',
      'Mountain Views',
      'Near the Gondola',
      'Fireplace & Sauna',
      'Free Shuttle Stop',
    ],
    highlights: [
      'the hot tub',
      'the mountain view',
      'the ski access',
      'the fireplace',
      'the location',
      'the beds',
    ],
  },
  {
    code: 'LX',
    city: 'Lisbon',
    region: 'Lisboa',
    countryCode: 'PT',
    postalCodes: ['1100-148', '1200-195', '1100-341', '1250-096', '1200-470', '1170-022'],
    timeZone: 'Europe/Lisbon',
    currency: 'EUR',
    latitude: 38.7139,
    longitude: -9.1394,
    style: 'city',
    share: 0.35,
    demand: [0.45, 0.5, 0.6, 0.68, 0.72, 0.75, 0.78, 0.78, 0.75, 0.68, 0.52, 0.5],
    bedrooms: [
      [0, 20],
      [1, 40],
      [2, 28],
      [3, 12],
    ],
    propertyTypes: [
      ['apartment', 80],
      ['loft', 12],
      ['house', 8],
    ],
    basePrice: 68,
    perBedroom: 34,
    cleaningFee: 35,
    cleaningPerBedroom: 10,
    extraGuestFee: 10,
    taxRateBp: 600,
    checkInTime: 15,
    checkOutTime: 11,
    minNights: [
      [1, 35],
      [2, 50],
      [3, 15],
    ],
    stayLengths: [
      [1, 8],
      [2, 22],
      [3, 24],
      [4, 18],
      [5, 10],
      [6, 5],
      [7, 7],
      [10, 3],
      [14, 2],
      [30, 1],
    ],
    leadMedianDays: 28,
    seasons: [
      { name: 'Summer high season', from: [6, 1], to: [9, 15], percent: 20 },
      { name: 'Winter low season', from: [11, 15], to: [2, 28], percent: -15 },
    ],
    events: [
      { name: 'Santo António festival', month: 6, day: 11, nights: 3, percent: 50, minNights: 2 },
      { name: 'Web Summit', month: 11, day: 9, nights: 5, percent: 70, minNights: 3 },
      newYear,
    ],
    lockProviders: ['Nuki', 'TTLock'],
    streets: [
      'Rua da Madalena',
      'Rua dos Fanqueiros',
      'Rua do Alecrim',
      'Rua da Rosa',
      'Travessa do Carvalho',
      'Rua de São Paulo',
      'Calçada do Combro',
      'Rua das Flores',
      'Largo do Intendente',
      'Rua dos Remédios',
    ],
    nameFirst: [
      'Alfama',
      'Chiado',
      'Bairro Alto',
      'Príncipe Real',
      'Baixa',
      'Graça',
      'Mouraria',
      'Santos',
      'Estrela',
      'Cais do Sodré',
    ],
    nameKinds: {
      apartment: ['Apartment', 'Flat', 'Penthouse', 'Duplex', 'Studio'],
      loft: ['Loft'],
      house: ['Townhouse', 'Casa'],
    },
    nameFeatures: [
      'River View',
      'Sunny Balcony',
      'Azulejo Details',
      'Rooftop Terrace',
      'Near Tram 28',
      'Quiet Courtyard',
      'Designer Interior',
    ],
    highlights: [
      'the view of the river',
      'the location',
      'the terrace',
      'the neighbourhood',
      'the decor',
      'the bed',
    ],
  },
];

/** Code lengths and rules of the smart-lock makers the demo uses. */
export const lockProviderTraits: Readonly<Record<string, { codeLength: number; noZeros: boolean }>> = {
  Schlage: { codeLength: 4, noZeros: false },
  Yale: { codeLength: 6, noZeros: false },
  August: { codeLength: 6, noZeros: false },
  // Nuki keypads have no 0 key and refuse codes starting with 12.
  Nuki: { codeLength: 6, noZeros: true },
  TTLock: { codeLength: 4, noZeros: false },
};

/** Guest first names, a mix of the markets' usual visitors. */
export const guestFirstNames = [
  'Emma',
  'Liam',
  'Olivia',
  'Noah',
  'Ava',
  'Ethan',
  'Sophia',
  'Mason',
  'Isabella',
  'Lucas',
  'Mia',
  'James',
  'Charlotte',
  'Benjamin',
  'Amelia',
  'Henry',
  'Harper',
  'Daniel',
  'Evelyn',
  'Jack',
  'Abigail',
  'Owen',
  'Emily',
  'Samuel',
  'Grace',
  'Caleb',
  'Chloe',
  'Nathan',
  'Zoe',
  'Ryan',
  'Hannah',
  'Tyler',
  'Madison',
  'Brandon',
  'Ashley',
  'Jordan',
  'Taylor',
  'Morgan',
  'Priya',
  'Arjun',
  'Wei',
  'Mei',
  'Hiroshi',
  'Yuki',
  'Ana',
  'João',
  'Inês',
  'Tiago',
  'Beatriz',
  'Miguel',
  'Sofia',
  'Pablo',
  'Lucía',
  'Javier',
  'Camille',
  'Louis',
  'Léa',
  'Hugo',
  'Lena',
  'Felix',
  'Hannah',
  'Jonas',
  'Marta',
  'Tomasz',
  'Giulia',
  'Marco',
  'Freya',
  'Oscar',
  'Aoife',
  'Conor',
  'Ingrid',
  'Lars',
  'Fatima',
  'Omar',
  'Sara',
  'David',
  'Rachel',
  'Kevin',
  'Laura',
  'Michael',
] as const;

/** Guest last names. */
export const guestLastNames = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Thompson',
  'White',
  'Harris',
  'Clark',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Hill',
  'Green',
  'Adams',
  'Baker',
  'Nelson',
  'Carter',
  'Mitchell',
  'Roberts',
  'Turner',
  'Phillips',
  'Campbell',
  'Parker',
  'Evans',
  'Collins',
  'Stewart',
  'Morris',
  'Murphy',
  'Cook',
  'Patel',
  'Shah',
  'Chen',
  'Wang',
  'Tanaka',
  'Sato',
  'Silva',
  'Santos',
  'Ferreira',
  'Costa',
  'Oliveira',
  'Pereira',
  'Fernández',
  'González',
  'Dubois',
  'Moreau',
  'Müller',
  'Schmidt',
  'Schneider',
  'Kowalski',
  'Rossi',
  'Bianchi',
  "O'Brien",
  'Byrne',
  'Johansson',
  'Nielsen',
  'Haddad',
  'Cohen',
  'Novak',
  'Jensen',
] as const;

/** Owners of listing groups (property owners the host manages for). */
export const groupOwners = [
  'Henderson Family Trust',
  'Carla & Tom Reyes',
  'Alpine Holdings LLC',
  'Maria João Ferreira',
  'Bayside Investments LLC',
  'Greg Whitaker',
  'Nguyen Properties',
  'Susan & Bill Carter',
  'Tejo Imóveis Lda',
  'Summit Ridge Partners',
  'Priya Raman',
  'The Okafor Family',
] as const;

/** Notes hosts put on maintenance blocks. */
export const maintenanceNotes = [
  'Deep clean and carpet shampoo',
  'HVAC service',
  'Plumbing repair in the main bathroom',
  'Repainting the living room',
  'Hot water heater replacement',
  'Annual pest control and inspection',
  'New mattresses delivered',
  'Photographer for new listing photos',
] as const;

/** Notes hosts put on reservations. */
export const reservationNotes = [
  'Celebrating an anniversary; left a bottle of wine.',
  'Early check-in requested, confirmed if cleaning is done by noon.',
  'Returning guest.',
  'Travelling with a toddler; set up the pack-and-play.',
  'Asked for extra towels.',
  'Arriving late at night, sent self check-in instructions again.',
  'Guest mentioned a peanut allergy.',
  'Booked for a wedding party nearby.',
] as const;

/** Why guests come, for their first message. */
export const tripPurposes = [
  'a family of four coming for a week at the beach',
  'celebrating our anniversary',
  'in town for a wedding',
  'a group of friends on a long weekend',
  'visiting family nearby',
  'coming for a work trip and some sightseeing',
  'taking our kids on their first trip here',
  'a couple looking forward to some quiet days',
] as const;

/** A question a guest asks and the host's answer; `{listing}` becomes the listing name. */
export interface QuestionAndAnswer {
  readonly question: string;
  readonly answer: string;
}

/** Questions before arrival. */
export const preArrivalQuestions: readonly QuestionAndAnswer[] = [
  {
    question: 'Is there parking at the property? We are driving in.',
    answer:
      'Yes, there is one free parking spot reserved for you; the number is in the arrival instructions.',
  },
  {
    question: 'Any chance we could check in a bit early, around 1pm?',
    answer: 'We will do our best! If the cleaners finish early I will message you the same morning.',
  },
  {
    question: 'Do you have a pack-and-play or a high chair for our baby?',
    answer: 'We have both, and I will ask the cleaners to set them up before you arrive.',
  },
  {
    question: 'What is the best way to get there from the airport?',
    answer: 'A rideshare is easiest, about 40 minutes. There is also a shuttle; I can send you the link.',
  },
  {
    question: 'Is there a washer and dryer we can use?',
    answer: 'Yes, both are in the unit, and detergent pods are under the sink.',
  },
  {
    question: 'Can we bring our small dog?',
    answer: 'I am sorry, this place is not pet friendly. I can recommend a great boarding place nearby.',
  },
  {
    question: 'Is the Wi-Fi fast enough for video calls? I need to work one day.',
    answer: 'It is fibre, around 300 Mbps, and there is a desk in the second bedroom.',
  },
  {
    question: 'Are towels and linens provided?',
    answer: 'Yes, everything is provided: towels, linens, and a starter kit of toiletries.',
  },
];

/** Questions during a stay. */
export const duringStayQuestions: readonly QuestionAndAnswer[] = [
  {
    question: 'The Wi-Fi seems to be down, could you help?',
    answer:
      'So sorry about that! Please unplug the router for 30 seconds; if that does not help I will send someone.',
  },
  {
    question: 'We cannot get the hot water to work in the shower.',
    answer:
      'Thanks for letting me know. Our maintenance tech is on the way and should be there within the hour.',
  },
  {
    question: 'Where should we put the trash and recycling?',
    answer: 'The bins are by the side door; recycling goes in the blue one. Pickup is on Thursday mornings.',
  },
  {
    question: 'Could we get a few more towels?',
    answer: 'Of course, there are extra towels in the hall closet, and I can have more dropped off today.',
  },
  {
    question: 'Do you have a restaurant recommendation for tonight?',
    answer:
      'Absolutely! My favourite is the little seafood place two streets down; ask for the catch of the day.',
  },
  {
    question: 'The TV remote does not seem to work.',
    answer:
      'There are spare batteries in the kitchen drawer next to the stove. Let me know if that does not fix it.',
  },
];

/** What guests write after they leave. */
export const thankYouNotes = [
  'Thank you for a wonderful stay! We already miss the place.',
  'We just left, thanks so much for everything. The door is locked behind us.',
  'Thanks again, it was perfect for our family.',
  'Everything was great, thank you for being so responsive!',
] as const;

/** What hosts answer to a thank-you. */
export const thankYouReplies = [
  'Thank you for being such great guests, come back anytime!',
  'It was a pleasure hosting you. Safe travels home!',
  'So glad you enjoyed it. Hope to see you again soon!',
] as const;

/** Opening lines of reviews, by overall rating (index 0 = 1 star). */
export const reviewOpenings: readonly (readonly string[])[] = [
  ['Very disappointing stay.', 'Not what we expected at all.', 'I cannot recommend this place.'],
  ['Unfortunately the stay had several problems.', 'The place did not match the photos.'],
  [
    'An okay stay overall.',
    'Decent place, but a few things could be better.',
    'It was fine for a short trip.',
  ],
  ['We had a really nice stay.', 'Good place, we enjoyed our time here.', 'Comfortable and well located.'],
  [
    'Absolutely loved our stay!',
    'Perfect place for our trip.',
    'One of the best rentals we have stayed in.',
    'Fantastic stay from start to finish.',
    'Exactly as pictured, and even better in person.',
  ],
];

/** Praise sentences; `{highlight}` becomes one of the market's highlights. */
export const reviewPraise = [
  'We especially loved {highlight}.',
  'The highlight for us was {highlight}.',
  'Check-in was easy and the place was spotless.',
  'The host answered every question within minutes.',
  'Everything we needed was there, down to the coffee filters.',
  'The beds were very comfortable.',
  'Great value for the location.',
  'The kids did not want to leave.',
] as const;

/** Complaint sentences for lower ratings. */
export const reviewComplaints = [
  'The unit was not as clean as we hoped when we arrived.',
  'It was quite noisy at night.',
  'The Wi-Fi kept dropping.',
  'The air conditioning struggled to keep up.',
  'Some of the furniture is worn and needs replacing.',
  'Parking was harder to find than described.',
  'The hot water ran out quickly.',
] as const;

/** Closing lines of good reviews. */
export const reviewClosings = [
  'We will definitely be back!',
  'Highly recommended.',
  'Would stay again in a heartbeat.',
  'Thanks for a great stay!',
  '',
] as const;

/** Private notes guests leave for the host. */
export const privateFeedbackNotes = [
  'The shower drains slowly.',
  'One of the bedside lamps does not work.',
  'The smoke detector in the hallway chirps, probably the battery.',
  'Maybe add a few more kitchen towels.',
  'The sofa bed mattress is quite thin.',
] as const;

/** Host responses to good reviews. */
export const hostThanks = [
  'Thank you so much for the kind words! It was a pleasure hosting you.',
  'Thanks for taking such good care of the place. You are welcome back anytime!',
  'We are so happy you enjoyed your stay. Hope to host you again soon!',
] as const;

/** Host responses to critical reviews. */
export const hostApologies = [
  'Thank you for the feedback, and I am sorry about the issues. We have already fixed them for future guests.',
  'I apologise that the stay did not meet your expectations. We have spoken with our cleaning team.',
  'Thanks for letting us know. The repair has been done and we have added a note for our maintenance team.',
] as const;
