"""The drawing helpers every kind's picture is made with: pure SVG string building, no Django.

``svg`` is the one toolkit (elements, arrows, the root); ``geometry`` and ``labels`` estimate text
boxes and place labels off every drawn line; ``plane``, ``figures`` and ``crop`` draw arrows in
panels; ``sketch`` places a picture's labels last; ``text_figures`` and ``boxes`` draw rows of
boxed text. ``layer_figures``, ``loop_figures`` and ``nearest_figures`` hold the pictures of
particular kinds (``static_vs_contextual`` and ``two_layers``, ``greedy_loop``,
``nearest_by_cosine``): the kind's generator computes, these modules only draw.
"""
