"""Astra, the pure rules (``../shared/astra/RULES.md``): no Django, no I/O beyond reading this
package's own data file once, no clock, no randomness."""
