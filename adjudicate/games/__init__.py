"""One module per rule set; `GAMES` maps the contract's game names to them."""
from adjudicate.games.base import Game
from adjudicate.games.eight_ball import EightBall
from adjudicate.games.nine_ball import NineBall
from adjudicate.games.rotation_61 import Rotation61
from adjudicate.games.straight_pool import StraightPool
from adjudicate.games.ten_ball import TenBall

GAMES: dict[str, Game] = {g.name: g for g in (EightBall(), NineBall(), TenBall(), StraightPool(), Rotation61())}
