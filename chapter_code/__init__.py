"""Kitob boblarining umumiy kodi: bob import qiladigan narsalar, boshqa hech narsa.

Modullar vazifasiga qarab ajratilgan: ``kitob`` (kitob yordamchilari: diagrammalar,
jadvallar, rasmlar), ``bichim`` (sonlarning oʻzbekcha shakli: 0,997; 2,8·10⁻⁵; 98 %),
``malumot`` (bobning sodda sunʼiy vazifasi), ``modellar`` (modellar), ``sonlar``
(yakuniy vazifa: oʻzbekcha son soʻzlari), ``oqitish`` (oʻqitish va oʻlchash),
``natijalar`` (bir necha seed bilan oʻqitish qanday tugagani, sanoqlardan tuzilgan gap
bilan), ``muhit`` (mashinaning arifmetikasi: beqaror oʻqitish qanday tugashini u hal
qiladi) va ``ombor`` (uzoq hisoblar natijalari: diskda saqlanadi, kaliti — ularning
kodi va shu arifmetika).  Kitobni yigʻish kodi (Sphinx kengaytmalari, yigʻishni
boshqaradigan dastur) ``book/_ext/`` da turadi; ikki tomon bir-birini import qilmaydi,
faqat ikki istisno bor: yigʻish glue qilingan sonlarni ``bichim`` bilan yozadi (bob
jadvallari va rasm oʻqlaridagi belgilarni yozadigan yordamchi ham shu), bajarish keshining
kalitiga esa ``muhit`` ni qoʻshadi — ombor oʻqitishlarni qanday kalitlasa, xuddi shunday.
Paketning oʻzi ogʻir hech narsani import qilmaydi: bob oʻziga kerakli modullarni
toʻgʻridan-toʻgʻri import qiladi.
"""

from pathlib import Path

#: The project's root (the folder that holds chapter_code/): pictures and the
#: store of results go under its _build/.
ILDIZ = Path(__file__).resolve().parent.parent
