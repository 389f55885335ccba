"""Framework-neutral math of layers, losses, initialisers, optimisers and data loading.

Both frontends bind to these functions; they add only names, defaults, parameter
layouts and printed forms.
"""
