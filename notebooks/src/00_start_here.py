# %% [markdown]
# # 00 · Start here
# placeholder: the real notebook is written in issue 6.

# %%
import inplace_tutorial as ipt
print("setup ok")
