"""data: the digits dataset, a seeded split, TensorDataset, a minimal DataLoader, and the
rule-generated text the tiny GPT trains on."""
from .dataloader import DataLoader, TensorDataset
from .digits import digits_split, load_digits, train_test_split
from .tiny_text import CharVocab, entropy_per_char, generate_text

__all__ = ["CharVocab", "DataLoader", "TensorDataset", "digits_split", "entropy_per_char",
           "generate_text", "load_digits", "train_test_split"]
