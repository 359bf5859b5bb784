"""The model runner: owns the KV cache and turns a step's plans into one forward pass.

Every sequence's :class:`~engine.sequence.StepPlan` becomes a row of a padded batch. Each batch
field is built as a Python list for the whole batch and reaches the device as one tensor (three
host-to-device copies per step, whatever the batch size); the runner then runs the model through
the slot KV cache and projects only the hidden states that predict each row's window.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from engine.model import CacheView, DiffusionLM
from engine.sequence import Sequence, StepPlan


@dataclass
class Batch:
    """One step's inputs, each field one tensor on the model's device."""

    ids: torch.Tensor  # [B, Lq] token ids fed (padding: 0)
    positions: torch.Tensor  # [B, Lq]
    cache: CacheView  # slots, per-query key limits, where each fed token's K/V goes
    rows: torch.Tensor  # [B, Lw] index into the fed positions of the state predicting each
    eligible: torch.Tensor  # [B, Lw] bool, window positions that may be committed
    widths: list[int]  # per row, the real window width (the rest is padding)


class ModelRunner:
    """A model with its slot KV cache: ``prepare`` plans into a :class:`Batch`, ``run`` it."""

    def __init__(
        self, model: DiffusionLM, max_batch_size: int, max_len: int, device: torch.device
    ) -> None:
        self.model, self.device, self.max_len = model, device, max_len
        cfg = model.cfg
        dtype = next(model.parameters()).dtype
        shape = (cfg.num_layers, max_batch_size, max_len, cfg.num_kv_heads, cfg.head_dim)
        self.k_cache = torch.zeros(shape, dtype=dtype, device=device)
        self.v_cache = torch.zeros(shape, dtype=dtype, device=device)
        self.shift = 1 if cfg.logit_shift else 0  # Dream, Fast-dLLM v2: logits shifted by one

    def prepare(self, seqs: list[Sequence], plans: list[StepPlan]) -> Batch:
        B = len(seqs)
        Lq = max(p.q_end - p.q_start for p in plans)
        Lw = max(p.block[1] - p.block[0] for p in plans)
        q_rows: list[list[int]] = [[], [], [], []]  # ids, positions, key limits, valid
        w_rows: list[list[int]] = [[], []]  # rows, eligible
        write_rows: list[int] = []
        write_pos: list[int] = []
        for s, p in zip(seqs, plans, strict=True):
            n, pad = p.q_end - p.q_start, Lq - (p.q_end - p.q_start)
            q_rows[0] += s.tokens[p.q_start : p.q_end] + [0] * pad
            q_rows[1] += list(range(p.q_start, p.q_end)) + [0] * pad
            q_rows[2] += p.kv_limit + [1] * pad
            q_rows[3] += [1] * n + [0] * pad
            write_rows += [s.slot] * n
            write_pos += range(p.q_start, p.q_end)
            ws, we = p.block
            # The state at position i - shift predicts position i; clamp: position 0 has no
            # predecessor, and is always prompt (never eligible).
            w_rows[0] += [max(0, i - self.shift - p.q_start) for i in range(ws, we)]
            w_rows[0] += [0] * (Lw - (we - ws))
            w_rows[1] += [int(x) for x in p.eligible] + [0] * (Lw - (we - ws))
        dev = self.device
        q = torch.tensor(q_rows, dtype=torch.long).view(4, B, Lq).to(dev, non_blocking=True)
        w = torch.tensor(w_rows, dtype=torch.long).view(2, B, Lw).to(dev, non_blocking=True)
        flat = torch.tensor([[s.slot for s in seqs] + write_rows, [0] * B + write_pos])
        flat = flat.to(dev, non_blocking=True)
        valid = q[3].bool()
        cache = CacheView(
            k=self.k_cache,
            v=self.v_cache,
            slots=flat[0, :B],
            kv_limit=q[2].to(torch.int32),
            write_rows=flat[0, B:],
            write_pos=flat[1, B:],
            valid=valid,
        )
        widths = [p.block[1] - p.block[0] for p in plans]
        return Batch(q[0], q[1], cache, w[0], w[1].bool(), widths)

    def run(self, batch: Batch) -> torch.Tensor:
        """Logits [B, Lw, V] for every row's window (the mask token's logit is -inf)."""
        hidden = self.model(batch.ids, batch.positions, cache=batch.cache, return_hidden=True)
        B, Lw = batch.rows.shape
        sel = hidden.gather(1, batch.rows[..., None].expand(B, Lw, hidden.shape[-1]))
        logits = self.model.logits(sel)  # [B, Lw, V]
        logits[..., self.model.cfg.mask_token_id] = float("-inf")  # never "predict" a mask
        return logits
