"""Reinforcement-learning environments for Verso and VERSUS (the optional extra ``rl``).

``pip install -e '.[rl]'`` (PettingZoo, Gymnasium, NumPy). Nothing in ``core``, ``games`` or
``bots`` imports this package; it reads the engines through their public views.

* :func:`verso_env` — Verso for 2–6 players, a PettingZoo AEC environment;
* :func:`versus_env` — VERSUS, a PettingZoo AEC environment (board plies only, or with the
  platform actions: ``platform=True``);
* :func:`verso_solo_env` — solo Verso, a Gymnasium environment whose reward is the points gained.

Encodings (every index is documented in the modules named):

* Verso (:mod:`otherside.rl.verso`): 198 actions (``draw``, ``flip``, ``pass``, then the 195
  series the notation can write); the observation of a seat is a ``float32`` vector of
  ``277 * N + 178`` features: per seat, relative to the observer, the 21 tableau slots (card,
  3-VP face up, down face when shown), score and square flag; then the top face, pile size,
  phase, seat to move, seats still to come in the final round, discarded cards.
* VERSUS (:mod:`otherside.rl.versus`): 2070 plies (origin cell × direction × distance), then
  4 platform actions; the observation is an ``(11, 11, 19)`` grid of the axial coordinates
  with one channel per feature (targets, VERSUS, stones by controller, values to each side,
  S11 counts, the side to move, scores, S13.4's counter, draw offers).

Observations come with an ``action_mask`` (int8) over the action space; ``decode_action(i)``
gives an index's notation and ``encode_action`` the reverse. Rewards: the AEC environments give
+1/-1/0 per opponent at the end (``reward="outcome"``) or the score margin at every step
(``reward="margin"``), see :mod:`otherside.rl.aec`. :mod:`otherside.rl.bots` makes the
project's bots policies of these environments.
"""

from otherside.rl.aec import VersoEnv, VersusEnv, verso_env, versus_env
from otherside.rl.solo import VersoSoloEnv, verso_solo_env

__all__ = [
    "VersoEnv",
    "VersoSoloEnv",
    "VersusEnv",
    "verso_env",
    "verso_solo_env",
    "versus_env",
]
