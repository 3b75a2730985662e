"""data: the digits dataset, a seeded split, TensorDataset and a minimal DataLoader."""
from .dataloader import DataLoader, TensorDataset
from .digits import digits_split, load_digits, train_test_split

__all__ = ["DataLoader", "TensorDataset", "digits_split", "load_digits", "train_test_split"]
