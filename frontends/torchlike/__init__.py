"""The PyTorch dialect of janusgrad."""
