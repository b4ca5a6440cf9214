"""Game protocol, chance, seeded randomness, records, exact distributions and simulation."""
