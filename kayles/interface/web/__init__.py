"""``kayles serve``: a local web page to play, explore and teach.

``service`` is the engine behind the page (plain data, no web stack); ``app``
the ASGI app (Starlette, the optional extra ``kayles[web]``, imported only when
a server runs); ``static/`` the page itself (plain HTML, CSS and a JavaScript
module: no build step, no network).
"""
