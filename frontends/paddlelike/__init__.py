"""The PaddlePaddle dialect of janusgrad."""
