"""Host-side utilities: checkpoint files (io), vision data, printing, the drop-in
runner, DLPack exchange."""
