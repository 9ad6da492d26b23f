// The help lines of `backlot reset` and `backlot checkpoint`: their own module, so --help loads nothing else.
export const stateUsage = [
  'backlot reset [ids...]                     back to the first-start state (seed data; credentials kept)',
  'backlot checkpoint save NAME [ids...]      capture the current state under NAME',
  'backlot checkpoint restore NAME [ids...]   bring NAME back exactly',
  'backlot checkpoint list                    the checkpoints of this data directory',
];
