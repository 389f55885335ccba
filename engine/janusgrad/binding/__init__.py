"""The binding layer: how a dialect's table of rows becomes its functions, methods
and in-place forms (surface), argument translation (args), the Dialect record."""
