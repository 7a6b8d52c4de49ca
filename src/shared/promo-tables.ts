/** Spec section 2: the static promotional rates and time table. */
export const RATES = [
  { game: 'Jodi', stake: 10, payout: 1050 },
  { game: 'Harup', stake: 100, payout: 1050 },
] as const;
export const TIME_TABLE = [
  { name: 'NCR', time: '1:45 PM' },
  { name: 'Delhi Bazar', time: '2:45 PM' },
  { name: 'Shiri Ganesh', time: '4:15 PM' },
  { name: 'Faridabad', time: '5:50 PM' },
  { name: 'Ghaziabad', time: '9:15 PM' },
  { name: 'Gali', time: '11:15 PM' },
  { name: 'Disawer', time: '4:00 AM' },
] as const;
