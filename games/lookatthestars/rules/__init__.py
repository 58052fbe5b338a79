"""Look at the Stars, the pure rules (``../shared/lookatthestars/RULES.md``): no Django, no
I/O beyond reading this package's own data files once, no clock, no randomness."""
