// Names for the seeded households. Four of the 60 surnames contain "smi" (Smith, Smithers,
// Goldsmith, Smiley) and no other name does, so the search case `smi` matches about 4/60 of the
// households by surname plus those whose co-client or child married in with one of them:
// several thousand of 100,000, which makes its exact total a real cost.

export const SURNAMES = [
  'Smith', 'Smithers', 'Goldsmith', 'Smiley',
  'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez',
  'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee',
  'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker',
  'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green',
  'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Okafor',
  'Kowalski', 'Novak', 'Fischer', 'Schneider', "O'Brien", 'Nakamura',
] as const

export const FIRST_NAMES = [
  'James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth',
  'William', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen',
  'Christopher', 'Lisa', 'Daniel', 'Nancy', 'Matthew', 'Betty', 'Anthony', 'Margaret', 'Mark', 'Sandra',
  'Donald', 'Ashley', 'Steven', 'Kimberly', 'Paul', 'Emily', 'Andrew', 'Donna', 'Joshua', 'Michelle',
  'Kenneth', 'Carol', 'Kevin', 'Amanda', 'Brian', 'Dorothy', 'George', 'Melissa', 'Timothy', 'Deborah',
  'Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Ethan', 'Sophia', 'Lucas', 'Mia', 'Mateo',
  'Chloe', 'Aiden', 'Grace', 'Leo', 'Zoe', 'Hiro', 'Amara', 'Chidi', 'Ingrid', 'Priya',
] as const

/** Roles of the members after the primary client (position 0) and co-client (position 1). */
export const OTHER_ROLES = ['child', 'child', 'child', 'grandchild', 'parent', 'sibling', 'other'] as const
