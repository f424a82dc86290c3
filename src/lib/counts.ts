/** A count as the explorer writes it for a person: "1,000", "80,000" (one style everywhere). */
export const formatCount = (n: number) => n.toLocaleString('en-GB');
