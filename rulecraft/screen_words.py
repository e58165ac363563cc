"""The fixed words of the play screens, in each language of :mod:`rulecraft.narration`:
the terminal's (`rulecraft play`), the browser page's (`rulecraft serve`: sent to the page
with its view, so that ``table.js`` writes no word of its own) and the reasons a served
table refuses a request. The game's own words come from the rule set's glossary; the
sentences that tell events and options are :data:`rulecraft.narration.SENTENCES`.

A text is a template: ``{name}`` is filled in, ``{{`` and ``}}`` are braces.
"""

from __future__ import annotations

from rulecraft.narration import LANGUAGES

# The terminal's screens (cli/play.py, cli/play_screen.py).
TERMINAL = {
    "en": {
        "header": "{title} · {round_word} {round}{counters} · {current} to play · you are {player}",
        "header_setup": "{title} · setting up{counters} · you are {player}",
        "header_between": "{title} · {round_word} {round}{counters} · {player} to choose · you are {player}",
        "pass": "Pass the device to {who}.", "pass_enter": "Press Enter when only they can see the screen (q quits).",
        "you": "You", "pieces": "Your pieces", "in": "in",
        "map_legend": "* your pieces, n pieces there", "map_cut": "part of the board: m shows it all",
        "nothing_new": "Nothing new since your last choice.", "earlier": "({n} earlier: h shows the history)",
        "unseen": "({n} since your last choice: h shows them)",
        "unseen_start": "({n} since the game began: h shows them)", "nothing_yet": "Nothing has happened yet.",
        "react": "! {current}'s turn: you are asked to react.",
        "more": "options {first}–{last} of {count}: + shows the next, - the previous",
        "more_first": "options {first}–{last} of {count}: + shows the next",
        "more_last": "options {first}–{last} of {count}: - shows the previous",
        "hint": "type a number, ? for help",
        "hint_numbers": "type the number you choose, ? for help",
        "not_number_offered": "'{text}' is not one of the numbers offered: type one from {low} to {high} as listed, "
                              "or ? for help",
        "not_option": "'{text}' is not an option: type a number from 1 to {count}, or ? for help",
        "special_key": "arrow and other special keys do nothing here: type a number from 1 to {count}, or ? for help",
        "no_glossary": "{title} has no glossary in this language: its game words are shown as its rules write them",
        "no_option": "there is no option {n}: the options are 1 to {count}",
        "empty": "type the number of an option (1 to {count}), or ? for help",
        "history": "History of what you saw, page {page} of {pages} (latest last){more}",
        "history_more": "; h {next} shows earlier events",
        "no_page": "there is no page {n} of the history (1 to {pages})",
        "help": [
            "Commands (then Enter):",
            "  1, 2, …     choose that option",
            "  + / -       the next / previous options when they do not fit",
            "  h, history  what you saw happen, latest last (h 2: the page before)",
            "  m, map      the board, if any, and the things beside it (m 2: its next part)",
            "  t, table    the other players and the shared piles",
            "  y, yours    all your things, each with what it shows (y 2: the next page)",
            "  r           this screen again",
            "  s, s FILE   save the game (to FILE, and there from now on); --resume goes on",
            "  q, quit     quit",
        ],
        "table": "The other players and the shared piles", "face_down": "{n} face down", "top": "top {card}",
        "shown": "shown: {things}",
        "off_board": "Beside the board",
        "whole_map": "The whole board, part {page} of {pages}{more}", "map_more": "; m {next} shows the next part",
        "no_map_page": "there is no part {n} of the board (1 to {pages})", "to_play": "to play", "game": "Game",
        "no_board": "This game has no board; t shows what lies on the table.", "on_table": "In no pile",
        "no_board_part": "This game has no board; the things in no pile, part {page} of {pages}{more}",
        "empty_board": "Nothing is on the board yet.",
        "yours": "All your things ({player}), page {page} of {pages}{more}",
        "yours_more": "; y {next} shows the next page",
        "no_yours_page": "there is no page {n} of your things (1 to {pages})",
        "yours_none": "You have nothing of your own.", "yours_cut": "(y shows all your things in full)",
        "over": "{title}: game over", "winners": "Winners: {winners}", "nobody": "nobody",
        "final": "{decisions} decisions, {round_word} {round}", "undecided": "(undecided)",
        "saved": "saved to {path} (resume with --resume {path})", "bye_saved": "bye; the game is saved in {path}",
        "bye_unsaved": "bye; the game was not saved since its last change", "input_closed": "input closed",
        "intro": "{title}: {players}, {seed}; human seats: {humans}", "no_human": "none",
        "players_one": "{n} player", "players_many": "{n} players",
        "seed": "seed {seed}", "secret_seed": "a secret random seed", "saved_seed": "the saved game's seed, kept secret",
        "seat_human": "human", "seat_bot": "{bot}", "seat_script": "script {script}",
        "rule_error": "rule error:", "cannot_go_on": "the game cannot go on; its log up to here is in {path}",
        "not_saved": "not saved:", "goes_on": "the game goes on (s FILE saves it elsewhere)",
        "cannot_save": "cannot save to {path}:", "not_saved_goes_on": "not saved, the game goes on (s FILE saves it elsewhere)",
    },
    "fr": {
        "header": "{title} · {round_word} {round}{counters} · à {current} de jouer · vous êtes {player}",
        "header_setup": "{title} · mise en place{counters} · vous êtes {player}",
        "header_between": "{title} · {round_word} {round}{counters} · à {player} de choisir · vous êtes {player}",
        "pass": "Passez l'appareil à {who}.",
        "pass_enter": "Appuyez sur Entrée quand personne d'autre ne voit l'écran (q pour quitter).",
        "you": "Vous", "pieces": "Vos pièces", "in": "dans",
        "map_legend": "* vos pièces, n pièces là", "map_cut": "une partie du plateau : m le montre en entier",
        "nothing_new": "Rien de nouveau depuis votre dernier choix.",
        "earlier": "({n} plus anciens : h montre l'historique)",
        "unseen": "({n} depuis votre dernier choix : h les montre)",
        "unseen_start": "({n} depuis le début de la partie : h les montre)",
        "nothing_yet": "Rien ne s'est encore passé.",
        "react": "! Tour de {current} : vous pouvez réagir.",
        "more": "options {first} à {last} sur {count} : + montre les suivantes, - les précédentes",
        "more_first": "options {first} à {last} sur {count} : + montre les suivantes",
        "more_last": "options {first} à {last} sur {count} : - montre les précédentes",
        "hint": "tapez un numéro, ? pour l'aide",
        "hint_numbers": "tapez le nombre choisi, ? pour l'aide",
        "not_number_offered": "« {text} » n'est pas un des nombres proposés : tapez-en un de {low} à {high} parmi "
                              "ceux de la liste, ou ? pour l'aide",
        "not_option": "« {text} » n'est pas une option : tapez un numéro de 1 à {count}, ou ? pour l'aide",
        "special_key": "les flèches et autres touches spéciales ne font rien ici : tapez un numéro de 1 à {count}, "
                       "ou ? pour l'aide",
        "no_glossary": "{title} n'a pas de glossaire en français : les mots du jeu s'affichent tels que ses règles "
                       "les écrivent",
        "no_option": "il n'y a pas d'option {n} : les options vont de 1 à {count}",
        "empty": "tapez le numéro d'une option (1 à {count}), ou ? pour l'aide",
        "history": "Historique de ce que vous avez vu, page {page} sur {pages} (le plus récent en bas){more}",
        "history_more": " ; h {next} montre les précédents",
        "no_page": "il n'y a pas de page {n} dans l'historique (1 à {pages})",
        "help": [
            "Commandes (puis Entrée) :",
            "  1, 2, …     choisir cette option",
            "  + / -       les options suivantes / précédentes quand elles ne tiennent pas",
            "  h           ce que vous avez vu se passer (h 2 : la page d'avant)",
            "  m           le plateau, s'il y en a un, et ce qui est à côté (m 2 : la suite)",
            "  t           les autres joueurs et les piles communes",
            "  y           toutes vos affaires, chacune en détail (y 2 : la suite)",
            "  r           cet écran à nouveau",
            "  s, s FICH.  sauvegarder (dans FICH., et là désormais) ; --resume la reprend",
            "  q           quitter",
        ],
        "table": "Les autres joueurs et les piles communes", "face_down": "{n} face cachée", "top": "dessus {card}",
        "shown": "visibles\u00a0: {things}",
        "off_board": "À côté du plateau",
        "whole_map": "Le plateau entier, partie {page} sur {pages}{more}", "map_more": " ; m {next} montre la suivante",
        "no_map_page": "il n'y a pas de partie {n} du plateau (1 à {pages})", "to_play": "joue", "game": "Partie",
        "no_board": "Ce jeu n'a pas de plateau ; t montre ce qui est sur la table.", "on_table": "Dans aucune pile",
        "no_board_part": "Ce jeu n'a pas de plateau ; ce qui n'est dans aucune pile, partie {page} sur {pages}{more}",
        "empty_board": "Rien n'est encore sur le plateau.",
        "yours": "Toutes vos affaires ({player}), page {page} sur {pages}{more}",
        "yours_more": " ; y {next} montre la suivante",
        "no_yours_page": "il n'y a pas de page {n} de vos affaires (1 à {pages})",
        "yours_none": "Vous n'avez rien à vous.", "yours_cut": "(y montre toutes vos affaires en entier)",
        "over": "{title} : partie terminée", "winners": "Gagnants : {winners}", "nobody": "personne",
        "final": "{decisions} décisions, {round_word} {round}", "undecided": "(non décidée)",
        "saved": "sauvegardée dans {path} (reprendre avec --resume {path})",
        "bye_saved": "au revoir ; la partie est sauvegardée dans {path}",
        "bye_unsaved": "au revoir ; la partie n'a pas été sauvegardée depuis son dernier changement",
        "input_closed": "entrée fermée",
        "intro": "{title} : {players}, {seed} ; places tenues par des personnes : {humans}", "no_human": "aucune",
        "players_one": "{n} joueur", "players_many": "{n} joueurs",
        "seed": "graine {seed}", "secret_seed": "une graine aléatoire secrète",
        "saved_seed": "la graine de la partie sauvegardée, gardée secrète",
        "seat_human": "humain", "seat_bot": "bot {bot}", "seat_script": "script {script}",
        "rule_error": "erreur des règles\u00a0:",
        "cannot_go_on": "la partie ne peut pas continuer ; son journal jusqu'ici est dans {path}",
        "not_saved": "non sauvegardée\u00a0:", "goes_on": "la partie continue (s FICH. la sauvegarde ailleurs)",
        "cannot_save": "impossible de sauvegarder dans {path}\u00a0:",
        "not_saved_goes_on": "non sauvegardée, la partie continue (s FICH. la sauvegarde ailleurs)",
    },
}


# The browser's table page (server/static/table.html, table.js): its headings, buttons
# and status lines. ``html_lang`` is the page's language attribute.
PAGE = {
    "en": {
        "html_lang": "en", "page_title": "rulecraft: table", "connecting": "connecting…",
        "title": "{title}: you are {seat}", "round": "Round", "players": "Players", "over": "Game over",
        "waiting": "Waiting for another player.", "choose": "Choose", "choice": "Your choice", "side": "Your side",
        "happened": "What happened", "undo": "Undo my last decision", "history": "History", "now": "Back to now",
        "after": "after decision {n} of {m}", "so_far": "{n} decisions so far", "nothing": "nothing",
        "lost": "Connection lost: reconnecting…", "person": "person", "bot": "{bot} bot",
        "script": "{script}, played by the rules", "colon": ":", "setup": "Setting up",
        "beside": "Beside the board", "table": "On the table", "others": "The other players", "to_play": "to play",
        "face_down": "{n} face down", "top": "top: {card}", "shown": "shown: {things}",
        "spectator_title": "{title}: you are a spectator",
        "no_language": "There are no words in '{lang}': this page is in English.",
        "refused": "Not connected: the server refused this link.",
        "past": "A past step of the game, as you saw it then.",
        "undone": "{player} took back their last decision.",
        "board_title": "Board", "board_inside": "inside",
    },
    "fr": {
        "html_lang": "fr", "page_title": "rulecraft : table", "connecting": "connexion…",
        "title": "{title} : vous êtes {seat}", "round": "Manche", "players": "Joueurs", "over": "Partie terminée",
        "waiting": "En attente d'un autre joueur.", "choose": "Choisissez", "choice": "Votre choix", "side": "Votre jeu",
        "happened": "Ce qui s'est passé", "undo": "Annuler ma dernière décision", "history": "Historique",
        "now": "Revenir au présent", "after": "après la décision {n} sur {m}", "so_far": "{n} décisions jusqu'ici",
        "nothing": "rien", "lost": "Connexion perdue : reconnexion…", "person": "humain", "bot": "bot {bot}",
        "script": "{script}, joué par les règles", "colon": "\u00a0:", "setup": "Mise en place",
        "beside": "À côté du plateau", "table": "Sur la table", "others": "Les autres joueurs", "to_play": "joue",
        "face_down": "{n} face cachée", "top": "dessus\u00a0: {card}", "shown": "visibles\u00a0: {things}",
        "spectator_title": "{title}\u00a0: vous êtes spectateur",
        "no_language": "Il n'y a pas de mots en «\u00a0{lang}\u00a0»\u00a0: cette page est en français.",
        "refused": "Non connecté\u00a0: le serveur a refusé ce lien.",
        "past": "Une étape passée de la partie, telle que vous l'avez vue alors.",
        "undone": "{player} a repris sa dernière décision.",
        "board_title": "Plateau", "board_inside": "à l'intérieur",
    },
}

# Why a served table refuses a request, as the seat's page shows it (server.tables.RefusedMove).
# A reason given as a field ({reason}) is itself one of these when it is one's English text.
REFUSALS = {
    "en": {
        "spectator": "a spectator cannot choose", "over": "the game is over",
        "not_yours": "it is not your choice now ({player} is choosing)",
        "not_offered": "that is not one of the options you were offered",
        "rules_failed": "the rules could not play this move ({error}); nothing was changed",
        "cannot_undo": "cannot undo: {reason}",
        "rolled": "it rolled a die or drew at random", "not_seen_by_all": "some player does not see all that it caused",
        "showed_you": "it showed you something hidden", "showed_others": "it showed the other players something hidden",
        "bot_answered": "a bot answered after it, from what only it sees",
        "not_own_seat": "only a player's own seat can undo", "no_decision": "you have made no decision yet",
        "decided_since": "another player has decided since",
        "no_step": "there is no step {step} in this game (0 to {now})",
        "too_long": "message too long", "malformed": "malformed JSON: {error} at character {at}",
        "too_deep": "malformed JSON: nested too deeply",
        "not_a_message": 'send {{"type": "choose", "option": ...}} or {{"type": "undo"}}',
        "other_game": "this message names another game than this seat's",
        "moved_on": "the game has moved on since this page was drawn; choose again",
        "no_option": "a choice names its option",
        "no_game": "there is no game {game} here", "bot_seat": "this seat is played by a bot: it has no page",
        "not_a_seat": "this link is not a seat of this game (a token of another game, or mistyped)",
        "internal": "internal error ({error}); the server's console has the reason",
    },
    "fr": {
        "spectator": "un spectateur ne peut pas choisir", "over": "la partie est terminée",
        "not_yours": "ce n'est pas à vous de choisir maintenant ({player} choisit)",
        "not_offered": "ce n'est pas une des options qui vous ont été proposées",
        "rules_failed": "les règles n'ont pas pu jouer ce coup ({error}) ; rien n'a été changé",
        "cannot_undo": "impossible d'annuler\u00a0: {reason}",
        "rolled": "elle a lancé un dé ou tiré au hasard",
        "not_seen_by_all": "un joueur ne voit pas tout ce qu'elle a causé",
        "showed_you": "elle vous a montré quelque chose de caché",
        "showed_others": "elle a montré aux autres joueurs quelque chose de caché",
        "bot_answered": "un bot a répondu après elle, d'après ce que lui seul voit",
        "not_own_seat": "seule la place d'un joueur peut annuler", "no_decision": "vous n'avez encore rien décidé",
        "decided_since": "un autre joueur a décidé depuis",
        "no_step": "il n'y a pas d'étape {step} dans cette partie (0 à {now})",
        "too_long": "message trop long", "malformed": "JSON mal formé\u00a0: {error} au caractère {at}",
        "too_deep": "JSON mal formé\u00a0: trop imbriqué",
        "not_a_message": 'envoyez {{"type": "choose", "option": ...}} ou {{"type": "undo"}}',
        "other_game": "ce message nomme une autre partie que celle de cette place",
        "moved_on": "la partie a avancé depuis l'affichage de cette page ; choisissez à nouveau",
        "no_option": "un choix nomme son option",
        "no_game": "il n'y a pas de partie {game} ici", "bot_seat": "cette place est jouée par un bot : elle n'a pas de page",
        "not_a_seat": "ce lien n'est pas une place de cette partie (le jeton d'une autre partie, ou mal recopié)",
        "internal": "erreur interne ({error}) ; la console du serveur en donne la raison",
    },
}
_REASON_OF = {text: key for key, text in REFUSALS["en"].items() if "{" not in text}


def refusal(lang: str, reason: str, fields: dict | None = None) -> str:
    """A refusal's text in ``lang`` (English for a language without one): ``reason`` is a
    key of :data:`REFUSALS`, or an English text of one, or a text kept as it is; a field
    that is the English text of a reason is told in ``lang`` too."""
    table = REFUSALS.get(lang, REFUSALS["en"])
    key = reason if reason in table else _REASON_OF.get(reason)
    if key is None:
        return reason
    told = {k: refusal(lang, v) if isinstance(v, str) and v in _REASON_OF else v for k, v in (fields or {}).items()}
    return table[key].format(**told)


def screen_words(lang: str) -> dict:
    """Every fixed word of the screens in ``lang``, by table: a test (or a translator)
    reads them all here."""
    return {"terminal": TERMINAL[lang], "page": PAGE[lang], "refusals": REFUSALS[lang]}


assert set(TERMINAL) == set(PAGE) == set(REFUSALS) == set(LANGUAGES)
