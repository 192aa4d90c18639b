"""Duet at a real table: the Duet requests of the ``suggest`` contract, and :class:`Suggester`.

A real table gives partial information: the board, what one player sees on their side, what
is covered. :func:`spymaster_request_view` and :func:`guesser_request_view` turn such a
request into the same views the bots see in simulated games, so the same bots answer.
:class:`Suggester` answers every request of the contract (classic ones through
:mod:`duetbot.suggest.classic`, with the same families).

>>> # from duetbot.bots import default_bots
>>> # helper = Suggester(*default_bots())
>>> # helper.handle({"id": 1, "role": "guesser", "board": [...25...], "clues": [{"clue": "ocean", "number": 2}]})
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Sequence


from ..bots.guesser import EmbeddingGuesser
from ..bots.spymaster import EmbeddingSpymaster
from ..rules import GuessResult, Label, Phase, Player, Turn, Variant
from ..rules.keycard import ASSASSINS_PER_SIDE, GREENS_PER_SIDE
from ..views import GuesserView, SpymasterView
from ..views.classic import ClassicGuesserView, ClassicSpymasterView
from .classic import ClassicSuggester
from .hints import Hint
from .requests import (
    DEFAULT_TOKENS, DEFAULT_TOP, AnyRequest, BoardWords, ClassicGuesserRequest, ClassicSpymasterRequest,
    ClueSuggestion, Dispatcher, DuetGuess, DuetGuesserRequest, DuetGuesserResponse, DuetSpymasterRequest,
    ReportedClue, RequestError, Response, SpymasterResponse, UnknownClueWord, clue_suggestions, read_clue,
    read_request, reading_notes, side_of, unknown_clues,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..bots.factory import PartnerSpec

SIDE_RULE = f"a Duet side has {GREENS_PER_SIDE} greens and {ASSASSINS_PER_SIDE} assassins at most"
"""Why a request may not list more greens or assassins (the key card's count of one side)."""
HINT_CLUES = 4
"""Clues a Duet hint offers by default (a classic one: ``suggest.classic.HINT_CLUES``)."""


def spymaster_request_view(req: DuetSpymasterRequest | dict) -> SpymasterView:
    """The clue giver's view from a spymaster request (a struct, or a JSON object whose role
    is implied; see the schema, ``duetbot suggest schema``)."""
    request: DuetSpymasterRequest = read_request(req, DuetSpymasterRequest)
    board = BoardWords(request.board)
    green = board.positions("green", request.green, GREENS_PER_SIDE, SIDE_RULE)
    assassin = board.positions("assassin", request.assassin, ASSASSINS_PER_SIDE, SIDE_RULE)
    board.one_side(green, assassin)
    covered = set(board.positions("covered", request.covered))
    if not set(green) - covered:
        raise RequestError("no green word is left to clue: 'green' lists none that is not covered")
    partner_marks = frozenset(board.positions("partner_bystanders", request.partner_bystanders)) - covered
    turns = tuple(Turn(Player.A, read_clue(item, "history"), tuple(
        (board.words[i], GuessResult.GREEN if i in covered else GuessResult.BYSTANDER)
        for i in board.positions("history guesses", item.guesses))) for item in request.history or ())
    tokens = DEFAULT_TOKENS if request.tokens is None else request.tokens
    if tokens == 0:
        raise RequestError("'tokens' is 0: in sudden death no clue may be given")
    return SpymasterView(
        player=Player.A, words=board.words, my_side=side_of(len(board), green, assassin),
        covered=frozenset(covered), covered_green=frozenset(covered), my_marks=frozenset(),
        partner_marks=partner_marks, turns=turns, tokens=tokens, bystander_tokens=tokens,
        variant=Variant(tokens=max(tokens, 1)), partner_done=False, i_am_done=False, phase=Phase.CLUE)


def guesser_request_view(req: DuetGuesserRequest | dict) -> tuple[GuesserView, bool]:
    """The guesser's view from a guesser request, and whether my own side is known (a missing
    ``green`` and ``assassin`` mean not known; an empty list means none)."""
    request: DuetGuesserRequest = read_request(req, DuetGuesserRequest)
    board = BoardWords(request.board)
    covered = set(board.positions("covered", request.covered))
    wrong = set(board.positions("wrong", request.wrong)) - covered
    turns = tuple(Turn(Player.B, read_clue(item, "clues")) for item in request.clues)
    known_side = request.green is not None or request.assassin is not None
    green = board.positions("green", request.green, GREENS_PER_SIDE, SIDE_RULE)
    assassin = board.positions("assassin", request.assassin, ASSASSINS_PER_SIDE, SIDE_RULE)
    board.one_side(green, assassin)
    tokens = DEFAULT_TOKENS if request.tokens is None else request.tokens
    sudden = tokens == 0
    guessable = tuple(i for i in range(len(board)) if i not in covered and i not in wrong)
    if not guessable:
        raise RequestError("no word is left to guess: every word is covered or in 'wrong'")
    view = GuesserView(
        player=Player.A, words=board.words, my_side=side_of(len(board), green, assassin),
        covered=frozenset(covered), covered_green=frozenset(covered), my_marks=frozenset(wrong),
        partner_marks=frozenset(), turns=turns, tokens=tokens, bystander_tokens=tokens,
        variant=Variant(tokens=max(tokens, 1)), partner_done=False, i_am_done=False,
        phase=Phase.SUDDEN_DEATH if sudden else Phase.GUESS, guessable=guessable, guesses_left=None,
        correct_this_turn=0, sudden_death=sudden)
    return view, known_side


class Suggester(Dispatcher):
    """Answers suggest requests with one spymaster and one guesser (models loaded once):
    :meth:`handle_lines` for ``suggest jsonl``, :meth:`respond` for one request."""

    def __init__(self, spymaster: EmbeddingSpymaster, guesser: EmbeddingGuesser) -> None:
        self.spymaster = spymaster
        self.guesser = guesser
        # Without my own side there is no key card to infer from: the guesser reads clues alone.
        self._blind_guesser = EmbeddingGuesser(guesser.ensemble, replace(guesser.config, infer_key=False))
        self._classic: ClassicSuggester | None = None

    @classmethod
    def for_partner(cls, spec: PartnerSpec | None = None) -> Suggester:
        """The suggester that reads with the families of ``spec`` (a person's ``--partner``;
        default: the shipped bots), for hints: without the spec's noise (a hint is the
        families' own reading), and from the shipped bots for a random partner (which
        reads nothing), keeping its described words."""
        from dataclasses import replace as with_fields

        from ..bots.factory import PartnerSpec, default_bots

        spec = spec or PartnerSpec()
        spec = PartnerSpec(described=spec.described) if spec.random else with_fields(spec, noise=0.0)
        return cls(*default_bots(spec=spec))

    def hint(self, view: SpymasterView | GuesserView | ClassicSpymasterView | ClassicGuesserView,
             top: int | None = None) -> Hint:
        """The bots' suggestion for the move of the seat whose view this is, from that view only."""
        if isinstance(view, (ClassicSpymasterView, ClassicGuesserView)):
            return self.classic().hint(view, top)
        if isinstance(view, SpymasterView):
            if not view.greens_left:
                return Hint(done=True)
            return Hint(clues=tuple(self.spymaster.suggest(view, top=HINT_CLUES if top is None else top)))
        belief, stop_after = self.guesser.plan(view)
        stop_now = (not view.sudden_death and bool(view.correct_this_turn)
                    and self.guesser.should_stop(view, belief))
        own = frozenset(w for w, label in zip(view.words, view.my_side) if label is Label.ASSASSIN)
        return Hint(guesses=tuple(_ranked(belief)), stop_after=stop_after, stop_now=stop_now,
                    sudden_death=view.sudden_death, own_assassins=own)

    def answer(self, request: AnyRequest) -> Response:
        if isinstance(request, (ClassicSpymasterRequest, ClassicGuesserRequest)):
            return self.classic().answer(request)
        if isinstance(request, DuetSpymasterRequest):
            view = spymaster_request_view(request)
            top = DEFAULT_TOP if request.top is None else request.top
            return SpymasterResponse(id=request.id, clues=clue_suggestions(self.spymaster.suggest(view, top=top)),
                                     notes=self.notes(request.history or [], view, self.spymaster.ensemble))
        assert isinstance(request, DuetGuesserRequest)  # the four kinds are routed by (game, role)
        gview, known_side = guesser_request_view(request)
        ranked, stop_after = self.rank(gview, known_side)
        unknown = unknown_clues(request.clues, self.guesser.ensemble)
        return DuetGuesserResponse(id=request.id, guesses=ranked, stop_after=stop_after,
                                   notes=self.notes(request.clues, gview, self.guesser.ensemble, unknown),
                                   unknown_clues=unknown)

    def clue_options(self, req: DuetSpymasterRequest | dict) -> list[ClueSuggestion]:
        """The best clues for a spymaster request, best first."""
        response = self.answer(read_request(req, DuetSpymasterRequest))
        assert isinstance(response, SpymasterResponse)
        return response.clues

    def guess_ranking(self, req: DuetGuesserRequest | dict) -> tuple[list[DuetGuess], int]:
        """Every guessable word, best first, and how many of them the bot would guess."""
        return self.rank(*guesser_request_view(req))

    def rank(self, view: GuesserView, known_side: bool = True) -> tuple[list[DuetGuess], int]:
        """:meth:`guess_ranking` for a guesser's view (``known_side``: my own side is known)."""
        bot = self.guesser if known_side else self._blind_guesser
        belief, stop_after = bot.plan(view)
        return _ranked(belief), stop_after

    @staticmethod
    def notes(clues: Sequence[ReportedClue], view: SpymasterView | GuesserView, ensemble: Any,
              unknown: Sequence[UnknownClueWord] = ()) -> list[str]:
        """How a Duet request was read (:func:`reading_notes`) from the view it made: clues the
        rule book would not allow, numbers read as the largest possible, clue words no model
        knows (``unknown``), board words read from their spelling."""
        return reading_notes(clues, view.words, view.covered, ensemble, unknown)

    def classic(self) -> ClassicSuggester:
        """The same families playing classic Codenames (``"game": "classic"`` requests), built
        on the first such request: a Duet table never pays for them."""
        if self._classic is None:
            self._classic = ClassicSuggester.from_duet(self.spymaster, self.guesser)
        return self._classic


def _ranked(belief) -> list[DuetGuess]:
    """A guesser's belief as the contract's ranked guesses."""
    return [DuetGuess(word=w, score=round(float(s), 4), p_green=round(float(p[0]), 4), p_assassin=round(float(p[1]), 4))
            for w, s, p in zip(belief.words, belief.score, belief.p)]
