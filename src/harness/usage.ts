// The help lines of `backlot reset` and `backlot checkpoint`: their own module, so --help loads nothing else.
export const stateUsage = [
  'backlot reset [ids...]                     back to the first-start state (seed data; credentials kept)',
  'backlot checkpoint save NAME [ids...]      capture the current state under NAME',
  'backlot checkpoint restore NAME [ids...]   bring NAME back exactly',
  'backlot checkpoint delete NAME [ids...]    remove NAME (of every, or the named, service)',
  'backlot checkpoint list                    the checkpoints of this data directory, with their sizes',
];
